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
 * `npm run build` compiles it, with its own modules, into one file run by plain Node (no TypeScript
 * loader): PORT=3000 node .next/production-server/http-server.mjs (`npm start` does, after migrations).
 */
import { createServer } from "node:http";
import next from "next";
import { env } from "~/env";
import { API_PREFIX, handleApiRequest } from "./api/rest/handler";
import { setClientIpHeader } from "./client-ip";
import { getSqlPool } from "./db";
import { log } from "./log";
import { usageBatcher } from "./usage/usage-batch";
import { startJobWorker } from "./jobs/worker";
import { publicPageCache } from "./public-site/cache";
import { listenForPublicChanges } from "./public-site/change-listener";
import { handlePublicRequest } from "./public-site/handler";
import { processImagesInChild } from "./images/processing";

// Uploads are processed by a child process at the lowest CPU priority: reads are never starved.
processImagesInChild(new URL("./image-worker.mjs", import.meta.url));

const port = Number(process.env.PORT ?? 3000);
const app = next({ dev: false, dir: process.cwd(), port });
await app.prepare();
const handleWithNext = app.getRequestHandler();

const isApiPath = (url = "/") => url === API_PREFIX || url.startsWith(`${API_PREFIX}/`) || url.startsWith(`${API_PREFIX}?`);

const server = createServer((req, res) => {
  // Next's route handlers see no socket: they get the client's address from this server.
  setClientIpHeader(req.headers, req.socket.remoteAddress);
  const served = isApiPath(req.url)
    ? handleApiRequest(req, res)
    : handlePublicRequest(req, res).then((answered) => (answered ? undefined : handleWithNext(req, res)));
  // Both answer every failure themselves; this is the last resort.
  served.catch((error: unknown) => {
    log.error({ err: error }, "request failed");
    if (!res.headersSent) res.statusCode = 500;
    res.end();
  });
});
server.listen(port, () => log.info(`Production server listening on port ${port}`));
// Public pages are served from the cache with no database work while this listener proves that
// changes are announced (src/server/public-site/cache.ts); without it each hit checks the database.
const changeListener =
  env.PUBLIC_CACHE_LISTEN === "1" && env.DATABASE_URL ? listenForPublicChanges(env.DATABASE_URL, getSqlPool(), publicPageCache) : undefined;
// Background jobs: webhook deliveries (docs/webhooks.md) and scheduled publishing; the API serves on
// if the worker cannot start, and the events and due blogs wait for the next start.
const webhookWorker =
  env.WEBHOOK_WORKER === "1" && env.DATABASE_URL
    ? await startJobWorker(env.DATABASE_URL).catch((error: unknown) => void log.error({ err: error }, "job worker failed to start"))
    : undefined;

async function shutdown() {
  // Open keep-alive connections or a stuck flush must not hold the exit.
  setTimeout(() => process.exit(0), 5_000).unref();
  server.close();
  server.closeIdleConnections();
  await changeListener?.stop();
  // The batched usage of the last second is written, not lost with the process.
  await usageBatcher(getSqlPool).flush();
  // Deliveries in flight finish; queued ones stay queued for the next start.
  await webhookWorker?.stop();
  await app.close();
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown());
process.on("SIGINT", () => void shutdown());
