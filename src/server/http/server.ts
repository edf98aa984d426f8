import "server-only";
/**
 * The production server (`npm start`): Node's HTTP server with Next.js behind it. Requests to the
 * public API (/api/v1) go straight to its handler, and the public site's addresses (the blogs,
 * their feeds and sitemaps: src/server/public-site/handler.ts) to its own; everything else
 * (dashboard, the dashboard's tRPC, sign-in) to Next. Next's routing and dispatch cost about as
 * much CPU per request as the API's own work (bench/README.md), so these hot paths skip them here.
 * On Vercel and under `next dev`, Next serves both itself, through routes calling the same
 * handlers (src/pages/api/v1/[[...path]].ts, src/pages/api/public.ts).
 *
 * `npm run build` compiles it with the core that Next's routes load too (README.md, Architecture),
 * run by plain Node (no TypeScript loader): PORT=3000 node node_modules/@blogmgr/server/dist/http-server.mjs
 * (`npm start` does, after migrations), listening on HOSTNAME, loopback when unset (./listen-address.ts).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import next from "next";
import { env } from "~/env";
import { API_PREFIX, handleApiRequest } from "../api/rest/handler";
import { clientIp } from "./client-ip";
import { getSqlPool, sessionDatabaseUrl } from "../db";
import { createInFlight } from "./in-flight";
import { listenHostname } from "./listen-address";
import { log } from "../runtime/log";
import { usageBatcher } from "../usage/usage-batch";
import { viewBatcher } from "../views/view-batch";
import { startJobWorker } from "../jobs/worker";
import { publicPageCache } from "../public-site/cache";
import { listenForPublicChanges } from "../public-site/change-listener";
import { handlePublicRequest } from "../public-site/handler";
import { PUBLIC_URL_HEADER } from "../public-site/routes";
import { processImagesInChild } from "../images/processing";
import { inRequestScope } from "./request-scope";
import { isVerifiedDomainHost } from "../publication/domains";

if (!process.env.BETTER_AUTH_SECRET) log.warn("BETTER_AUTH_SECRET is not set: dashboard sessions will not survive a restart of this process");
// Uploads are processed by a child process at the lowest CPU priority: reads are never starved.
processImagesInChild(new URL("./image-worker.mjs", import.meta.url));

const port = env.PORT;
const hostname = listenHostname();
const app = next({ dev: false, dir: process.cwd(), hostname, port });
// Next's prepare() replaces the global Date with a wrapper reporting every reading of the clock to
// its prerender tracking, which only `cacheComponents` uses (not enabled: next.config.mjs). Every
// Date the API makes (pg's timestamps, the answers) paid for it (bench/README.md, "Allocations on
// the hot path"): the plain one is put back.
const PlainDate = Date;
await app.prepare();
if (Date !== PlainDate) {
  globalThis.Date = PlainDate;
  Object.defineProperty(PlainDate.prototype, "constructor", { value: PlainDate });
}
const handleWithNext = app.getRequestHandler();

/**
 * Hands the request to Next. Its route handlers see no socket: they find the client's address in
 * the request's scope. The public site's route under Next takes its address from a header only
 * the proxy (src/proxy.ts) may set: a client's copy never reaches Next (docs/security.md, Header trust).
 */
function handleWithNextInScope(req: IncomingMessage, res: ServerResponse): Promise<void> {
  delete req.headers[PUBLIC_URL_HEADER];
  return inRequestScope({ clientIp: clientIp({ headers: req.headers, socketAddress: req.socket.remoteAddress }) }, () => handleWithNext(req, res));
}

const isApiPath = (url = "/") => url === API_PREFIX || url.startsWith(`${API_PREFIX}/`) || url.startsWith(`${API_PREFIX}?`);

/**
 * The API, else the public site, else Next. On a publication's verified custom domain every
 * address is the public site's, /api/v1 too (docs/public-blog.md, Custom domains); the app's own
 * hosts are told apart from the Host header alone, so the API's requests wait for no lookup.
 */
async function serve(req: IncomingMessage, res: ServerResponse): Promise<unknown> {
  if (isApiPath(req.url) && !(await isVerifiedDomainHost(req.headers.host))) return (await handleApiRequest(req, res)).afterResponse;
  if (!(await handlePublicRequest(req, res))) await handleWithNextInScope(req, res);
}

/** Answers 200 while the server takes requests, 503 once it drains: the balancer's health check (docs/deploying.md). */
const HEALTH_PATH = "/api/health";
/** Longest a draining server waits for the requests it is answering and the work after them. */
const DRAIN_LIMIT_MS = 10_000;

const inFlight = createInFlight();
let draining = false;

const server = createServer((req, res) => {
  // A client kept alive on this connection opens a new one, to a server that stays.
  if (draining) res.setHeader("connection", "close");
  if (req.url === HEALTH_PATH) {
    res.writeHead(draining ? 503 : 200, { "content-type": "text/plain", "cache-control": "no-store" }).end(draining ? "draining" : "ok");
    return;
  }
  const served = serve(req, res);
  inFlight.track(served);
  // Both answer every failure themselves; this is the last resort.
  served.catch((error: unknown) => {
    log.error({ err: error }, "request failed");
    if (!res.headersSent) res.statusCode = 500;
    res.end();
  });
});
// A balancer keeps idle connections to the app for its next requests; if the app closed one first,
// a request the balancer is sending on it at that moment would be lost (HAProxy then drops the
// client's connection). So the app keeps them longer than balancers keep theirs (HAProxy's and
// nginx's defaults, AWS ALB: 60 s or less; docs/deploying.md); a request's headers may take as long.
server.keepAliveTimeout = 65_000;
server.headersTimeout = 66_000;
server.listen(port, hostname, () => log.info(`Production server listening on ${hostname} port ${port}`));
// LISTEN and the job worker need a session of their own: DIRECT_URL behind a pooler in transaction mode.
const sessionUrl = sessionDatabaseUrl();
// Public pages are served from the cache with no database work while this listener proves that
// changes are announced (src/server/public-site/cache.ts); without it each hit checks the database.
const changeListener =
  env.PUBLIC_CACHE_LISTEN === "1" && sessionUrl ? listenForPublicChanges(sessionUrl, getSqlPool(), publicPageCache) : undefined;
// Background jobs: webhook deliveries (docs/webhooks.md) and scheduled publishing; the API serves on
// if the worker cannot start, and the events and due blogs wait for the next start.
const webhookWorker =
  env.WEBHOOK_WORKER === "1" && sessionUrl
    ? await startJobWorker(sessionUrl).catch((error: unknown) => void log.error({ err: error }, "job worker failed to start"))
    : undefined;

/**
 * SIGTERM drains (docs/deploying.md, Graceful shutdown): the health check answers 503 for
 * SHUTDOWN_DELAY_SECONDS while requests are still served, so a balancer stops sending any; then
 * the server stops accepting, lets the requests it is answering and their after-response work
 * finish (at most DRAIN_LIMIT_MS), writes the batched usage, request log and readers' views, lets the job worker
 * finish its jobs, and exits.
 */
async function shutdown(signal: string) {
  if (draining) return;
  draining = true;
  // Past every bound below, the process goes anyway.
  setTimeout(() => process.exit(1), env.SHUTDOWN_DELAY_SECONDS * 1000 + DRAIN_LIMIT_MS + 15_000).unref();
  log.info({ signal, delaySeconds: env.SHUTDOWN_DELAY_SECONDS }, "draining");
  await new Promise((resolve) => setTimeout(resolve, env.SHUTDOWN_DELAY_SECONDS * 1000));
  server.close();
  // Connections between requests close now, the others once their answer is sent (connection: close).
  const closeIdle = setInterval(() => server.closeIdleConnections(), 100);
  server.closeIdleConnections();
  const drained = await inFlight.drained(DRAIN_LIMIT_MS);
  clearInterval(closeIdle);
  if (!drained) log.warn({ requests: inFlight.size }, "drain limit reached: closing the connections of unfinished requests");
  server.closeAllConnections();
  await changeListener?.stop();
  // The batched usage, request log and views of the last second are written, not lost with the process.
  await Promise.all([usageBatcher(getSqlPool).flush(), viewBatcher(getSqlPool).flush()]);
  // Jobs in flight finish; queued ones stay queued for the other instances or the next start.
  await webhookWorker?.stop();
  await app.close();
  log.info("drained; exiting");
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
