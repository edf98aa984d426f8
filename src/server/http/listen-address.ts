import "server-only";
/**
 * The address `npm start` and `npm run dev` listen on: HOSTNAME (as Next's own servers read it),
 * else loopback only, so that a server started on a machine with a public interface is not
 * reached from outside before a proxy and a firewall are in front of it. Behind a balancer on
 * another machine, or in a container, set HOSTNAME=0.0.0.0 (docs/deploying.md, Listening address).
 */
export const DEFAULT_HOSTNAME = "127.0.0.1";

export const listenHostname = (env: NodeJS.ProcessEnv = process.env) => env.HOSTNAME || DEFAULT_HOSTNAME;
