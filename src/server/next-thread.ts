import "server-only";
/**
 * Next.js's half of the production server (src/server/http-server.ts), run in a worker thread of
 * its process: the pages (dashboard, public blogs), sign-in and anything else Next serves, on a
 * local socket to which the server hands every request that is not /api/v1 or /api/trpc; and the
 * webhook worker. Why a thread: once loaded, Next replaces process-wide functions
 * (`process.nextTick`, `setImmediate`, `Date`, `Math.random`, `crypto.randomUUID`) and keeps
 * async hooks on. In a thread, those and Next's heap stay in this thread's V8 isolate, and the
 * API's isolate runs without them (bench/README.md, "Next.js in a worker thread").
 *
 * `npm run build` compiles it beside the server, which starts it from there.
 */
import { createServer } from "node:http";
import { parentPort, workerData } from "node:worker_threads";
import next from "next";
import { env } from "~/env";
import { trustClientIpHeader } from "./client-ip";
import { log } from "./log";
import { startWebhookWorker } from "./webhooks/worker";

/** What the server gives the thread. */
export interface NextThreadData {
  /** Where to listen: a Unix socket in a directory only this user can enter (a named pipe on Windows). */
  socketPath: string;
  /** The server's public port, for Next's own URLs. */
  port: number;
}

/** The thread tells the server "ready" once it serves, and "stopped" after the server's "stop". */
export type NextThreadMessage = "ready" | "stop" | "stopped";

const { socketPath, port } = workerData as NextThreadData;
const server = parentPort!;

// Every request here comes from the server, which set the client's address.
trustClientIpHeader();
const app = next({ dev: false, dir: process.cwd(), port });
await app.prepare();
const handleWithNext = app.getRequestHandler();

const pages = createServer((req, res) => {
  handleWithNext(req, res).catch((error: unknown) => {
    // Next answers every failure itself; this is the last resort.
    log.error({ err: error }, "request failed");
    if (!res.headersSent) res.statusCode = 500;
    res.end();
  });
});
// Its one client is the server's pool of kept-alive connections: closing an idle one could race a
// request the server is sending on it.
pages.keepAliveTimeout = 0;
await new Promise<void>((resolve, reject) => pages.once("error", reject).listen(socketPath, resolve));

// Webhook deliveries (docs/webhooks.md); the app serves on if the worker cannot start, and the
// events wait in the outbox for the next start.
const webhookWorker =
  env.WEBHOOK_WORKER === "1" && env.DATABASE_URL
    ? await startWebhookWorker(env.DATABASE_URL).catch((error: unknown) => void log.error({ err: error }, "webhook worker failed to start"))
    : undefined;

server.once("message", async () => {
  pages.close();
  pages.closeIdleConnections();
  // Deliveries in flight finish; queued ones stay queued for the next start.
  await webhookWorker?.stop();
  await app.close();
  server.postMessage("stopped" satisfies NextThreadMessage);
});
server.postMessage("ready" satisfies NextThreadMessage);
