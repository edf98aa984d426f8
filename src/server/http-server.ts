import "server-only";
/**
 * The production server (`npm start`): Node's HTTP server, with Next.js in a worker thread of its
 * own (src/server/next-thread.ts). This thread answers the public API (/api/v1) and the
 * dashboard's tRPC (/api/trpc) itself: both run the same procedures in one isolate (one
 * in-process rate limiter; usage the API records is at once visible to the dashboard), without
 * Next's routing and dispatch and without the process-wide functions Next replaces, which
 * together cost about as much CPU per request as the API's own work (bench/README.md). Every
 * other request (the pages, sign-in) it hands to Next over a local socket. On Vercel and under
 * `next dev`, Next serves everything: /api/v1 through the Pages Router route
 * (src/pages/api/v1/[[...path]].ts) and /api/trpc through src/app/api/trpc/[trpc]/route.ts, which
 * call the same handlers.
 *
 * `npm run build` compiles it and the thread, each with its own modules, into one file run by plain
 * Node (no TypeScript loader): PORT=3000 node .next/production-server/http-server.mjs (`npm start`
 * does, after migrations).
 */
import { AsyncResource } from "node:async_hooks";
import { mkdtemp, rm } from "node:fs/promises";
import { Agent, createServer, request, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { Worker } from "node:worker_threads";
import { handleDashboardRequest } from "./api/dashboard/handler";
import { API_PREFIX, handleApiRequest } from "./api/rest/handler";
import { setClientIpHeader } from "./client-ip";
import { getSqlPool } from "./db";
import { log } from "./log";
import type { NextThreadData, NextThreadMessage } from "./next-thread";
import { usageBatcher } from "./usage/usage-batch";

const DASHBOARD_API_PREFIX = "/api/trpc";

const port = Number(process.env.PORT ?? 3000);
let stopping = false;
// A directory only this user may enter: whoever reaches Next's socket is believed about the client's address.
const socketDir = await mkdtemp(join(tmpdir(), "blogmgr-"));
const socketPath = process.platform === "win32" ? `\\\\?\\pipe\\blogmgr-${process.pid}` : join(socketDir, "next.sock");
const nextThread = await startNextThread({ socketPath, port });
// Connections to Next's socket are kept open and reused: no connect per request.
const toNext = new Agent({ keepAlive: true });

const isUnder = (prefix: string, url = "/") => url === prefix || url.startsWith(`${prefix}/`) || url.startsWith(`${prefix}?`);

const server = createServer((req, res) => {
  if (isUnder(API_PREFIX, req.url)) return answerOrFail(handleApiRequest(req, res), res);
  if (isUnder(DASHBOARD_API_PREFIX, req.url)) return answerOrFail(answerDashboardRequest(req, res), res);
  // Next's route handlers see no socket: they get the client's address from this server.
  setClientIpHeader(req.headers, req.socket.remoteAddress);
  forwardToNext(req, res);
});
server.listen(port, () => log.info(`Production server listening on port ${port}`));

/** Both handlers answer every failure themselves; this is the last resort. */
function answerOrFail(served: Promise<unknown>, res: ServerResponse): void {
  served.catch((error: unknown) => {
    log.error({ err: error }, "request failed");
    if (!res.headersSent) res.statusCode = 500;
    res.end();
  });
}

/**
 * /api/trpc through the handler Next's route calls, given a web Request built from Node's; the
 * after-response tasks (Next's `after` there) run once the answer is sent, in the request's log scope.
 */
async function answerDashboardRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const tasks: (() => Promise<unknown>)[] = [];
  const response = await handleDashboardRequest(webRequest(req), (task) => void tasks.push(AsyncResource.bind(task)));
  res.statusCode = response.status;
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") res.setHeader(name, value);
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader("Set-Cookie", cookies);
  // tRPC's answers here are whole JSON documents (the dashboard uses no streaming link).
  res.end(Buffer.from(await response.arrayBuffer()));
  await Promise.all(tasks.map((task) => task().catch((error: unknown) => log.error({ err: error }, "after-response task failed"))));
}

function webRequest(req: IncomingMessage): Request {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  const method = req.method ?? "GET";
  const body = method === "GET" || method === "HEAD" ? undefined : (Readable.toWeb(req) as ReadableStream<Uint8Array>);
  // Only the path and query are read.
  return new Request(new URL(req.url ?? "/", "http://localhost"), { method, headers, body, duplex: "half" } as RequestInit);
}

// Headers of one connection, not of the request or answer: each side sets its own.
const HOP_BY_HOP = new Set(["connection", "keep-alive", "proxy-connection", "upgrade", "expect", "te", "trailer"]);

function endToEnd(headers: IncomingHttpHeaders, drop?: string): IncomingHttpHeaders {
  const kept: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) if (!HOP_BY_HOP.has(name) && name !== drop) kept[name] = value;
  return kept;
}

/** Hands the request to Next and streams its answer back as it comes (pages render in chunks). */
function forwardToNext(req: IncomingMessage, res: ServerResponse): void {
  // The request keeps its framing (Content-Length or chunked); the answer gets the client connection's own.
  const forwarded = request({ socketPath, agent: toNext, method: req.method, path: req.url, headers: endToEnd(req.headers) }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.statusMessage, endToEnd(answer.headers, "transfer-encoding"));
    answer.pipe(res);
  });
  let clientLeft = false;
  forwarded.on("error", (error) => {
    if (clientLeft) return;
    if (res.headersSent) return void res.destroy();
    log.error({ err: error }, "Next's thread did not answer");
    res.writeHead(502, { "Content-Type": "text/plain; charset=utf-8" }).end("Bad gateway: the pages are not being served\n");
  });
  // A client gone before the end of the answer (a browser cancelling a prefetch): Next stops rendering it.
  res.on("close", () => {
    if (res.writableFinished) return;
    clientLeft = true;
    forwarded.destroy();
  });
  req.pipe(forwarded);
}

/** Starts Next's thread and waits until it serves; the process ends if the thread ever stops on its own. */
async function startNextThread(data: NextThreadData): Promise<Worker> {
  const thread = new Worker(new URL("./next-thread.mjs", import.meta.url), { workerData: data });
  const started = await new Promise<boolean>((resolve) => {
    thread.once("message", () => resolve(true));
    thread.once("error", (error) => {
      log.fatal({ err: error }, "Next's thread failed");
      resolve(false);
    });
    thread.once("exit", () => resolve(false));
  });
  if (!started) process.exit(1);
  thread.once("exit", (code) => {
    if (stopping) return;
    log.fatal({ code }, "Next's thread stopped: the server stops with it");
    process.exit(1);
  });
  return thread;
}

async function shutdown() {
  stopping = true;
  // Open keep-alive connections or a stuck flush must not hold the exit.
  setTimeout(() => process.exit(0), 5_000).unref();
  server.close();
  server.closeIdleConnections();
  // The batched usage of the last second is written, not lost with the process.
  await usageBatcher(getSqlPool).flush();
  // Next's thread lets its webhook deliveries in flight finish; queued ones stay queued.
  const stopped = new Promise((resolve) => nextThread.once("message", resolve).once("exit", resolve));
  nextThread.postMessage("stop" satisfies NextThreadMessage);
  await stopped;
  toNext.destroy();
  await rm(socketDir, { recursive: true, force: true });
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown());
process.on("SIGINT", () => void shutdown());
