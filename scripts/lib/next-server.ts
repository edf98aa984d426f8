import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir } from "node:fs/promises";
import { createServer } from "node:net";
import { dirname, join, resolve } from "node:path";
import { DEFAULT_HOSTNAME } from "../../src/server/http/listen-address";
import { NEXT_BIN } from "./next-bin";

export interface RunningServer {
  baseUrl: string;
  /** The server's process (under `npm start`'s arguments, the server itself). */
  pid: number;
  /** Sends SIGTERM; settles when the server has exited (its last lines written). */
  stop(): Promise<void>;
}

export interface ServerOptions {
  /** Append the server's output (stdout and stderr) to this file, its directory made when missing. */
  logFile?: string;
  /** Hand every chunk of its output here too. Output neither logged nor handed is dropped: never on the console. */
  onOutput?: (chunk: Buffer) => void;
  /** Node options before the server's script (the bench's `--cpu-prof`, which NODE_OPTIONS refuses). */
  nodeArgs?: string[];
  /** The port to serve on (a balancer's configured backend); a free one when absent. */
  port?: number;
}

// What `npm run build` compiles for `npm start` (scripts/lib/server-core.ts), beside Next's build in
// the app's directory (the working directory, as for Next).
const SERVER_BUILD_DIR = resolve("node_modules/@blogmgr/server/dist");

/** `npm start`'s launcher: scripts/serve.ts, compiled. */
export const PRODUCTION_LAUNCHER = join(SERVER_BUILD_DIR, "serve.mjs");

/** The production server, as `npm start` runs it: /api/v1 straight to its handler, the rest to Next. */
export const PRODUCTION_SERVER = join(SERVER_BUILD_DIR, "http-server.mjs");

/**
 * Node's arguments for the production server. Under load, a request's objects outlive the young
 * generation's two scavenges and V8 lets the dead ones pile up in the old generation up to several
 * times the live heap: a larger young generation and a tighter old-generation growth keep the
 * server's memory near its live size at the same throughput (bench/README.md, scenario (e); on
 * Node 24, 16 MB semi-spaces hold (e) near 315 MB where 32 MB ones reached 406 MB).
 */
export const PRODUCTION_SERVER_ARGS = ["--max-semi-space-size=16", "--heap-growing-percent=50", PRODUCTION_SERVER];

/** Starts the built app's production server on a free port, once its API answers. */
export function startProductionServer(env: NodeJS.ProcessEnv, options: ServerOptions = {}): Promise<RunningServer> {
  return startServer([...(options.nodeArgs ?? []), ...PRODUCTION_SERVER_ARGS], env, options);
}

/** Starts the built app with `next start` (which reads PORT): Next itself serves /api/v1, as on Vercel (the Pages Router route). */
export function startNextServer(env: NodeJS.ProcessEnv, options: ServerOptions = {}): Promise<RunningServer> {
  return startServer([NEXT_BIN, "start", "--hostname", DEFAULT_HOSTNAME], env, options);
}

async function startServer(args: string[], env: NodeJS.ProcessEnv, { logFile, onOutput, port: givenPort }: ServerOptions): Promise<RunningServer> {
  const port = givenPort ?? (await freePort());
  const baseUrl = `http://${DEFAULT_HOSTNAME}:${port}`;
  if (logFile) await mkdir(dirname(logFile), { recursive: true });
  // Appended: an instance restarted on the same file (scripts/lib/cluster.ts) keeps one log.
  const log = logFile ? createWriteStream(logFile, { flags: "a" }) : undefined;
  const child: ChildProcess = spawn(process.execPath, args, {
    // A throwaway server: its own session secret unless one is given (quiet, and the same for
    // every process it might start).
    // Loopback, as the balancer of the cluster rig reaches it, whatever HOSTNAME the caller's shell exports.
    env: { BETTER_AUTH_SECRET: randomBytes(32).toString("hex"), ...env, PORT: String(port), HOSTNAME: DEFAULT_HOSTNAME, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" },
    stdio: ["ignore", ...(log || onOutput ? (["pipe", "pipe"] as const) : (["ignore", "ignore"] as const))],
  });
  for (const output of [child.stdout, child.stderr]) {
    output?.on("data", (chunk: Buffer) => {
      log?.write(chunk);
      onOutput?.(chunk);
    });
  }
  // "close": after the process has exited and its output has been read to the end; then the log is flushed.
  const exited = new Promise<void>((resolve) => child.once("close", () => (log ? log.end(resolve) : resolve())));
  const stop = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    return exited;
  };
  try {
    await waitUntilServing(`${baseUrl}/api/v1/openapi.json`, child);
  } catch (error) {
    stop();
    throw error;
  }
  return { baseUrl, pid: child.pid!, stop };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, DEFAULT_HOSTNAME, () => {
      const address = probe.address();
      probe.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no free port"))));
    });
  });
}

export async function waitUntilServing(url: string, child?: ChildProcess, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null) throw new Error(`server exited with ${child.exitCode} before answering ${url}`);
    if (await fetch(url).then((r) => r.ok, () => false)) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`server did not answer ${url} within ${timeoutMs / 1000} s`);
}

