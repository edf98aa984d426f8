import { createServer, type Socket } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";

import { log } from "~/server/runtime/log";
import { createRateLimiter, type RateLimiter } from "~/server/ratelimit";

import { nextUtcHour } from "./hour";

// Accepts connections and never answers: a store that is up but hung.
const hungSockets = new Set<Socket>();
const hungServer = createServer((socket) => {
  hungSockets.add(socket);
  socket.on("close", () => hungSockets.delete(socket));
});
let hungPort = 0;

beforeAll(async () => {
  await new Promise<void>((resolve) => hungServer.listen(0, "127.0.0.1", resolve));
  hungPort = (hungServer.address() as { port: number }).port;
});

afterAll(async () => {
  for (const socket of hungSockets) socket.destroy();
  await new Promise((resolve) => hungServer.close(resolve));
});

afterEach(() => {
  vi.restoreAllMocks();
});

async function timed<T>(promise: Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await promise;
  return { value, ms: performance.now() - start };
}

const unreachableStores: [string, () => RateLimiter][] = [
  ["Redis on a closed port", () => createRateLimiter({ redisUrl: "redis://127.0.0.1:1" })],
  ["Redis that never answers", () => createRateLimiter({ redisUrl: `redis://127.0.0.1:${hungPort}` })],
  ["Upstash on a closed port", () => createRateLimiter({ upstashUrl: "http://127.0.0.1:1", upstashToken: "token" })],
];

describe.each(unreachableStores)("fail open: %s", (_name, makeLimiter) => {
  it("serves within 1 s, reports the limit and the end of the hour, and logs once", async () => {
    const logged = vi.spyOn(log, "error").mockImplementation(() => {});
    const limiter = makeLimiter();
    const start = Date.now();

    const consumed = await timed(limiter.consume("account", 100));
    const peeked = await timed(limiter.peek("account", 100));
    const burst = await timed(Promise.all(Array.from({ length: 20 }, () => limiter.consume("account", 100))));

    for (const { ms } of [consumed, peeked, burst]) expect(ms).toBeLessThan(1000);
    const boundaries = [nextUtcHour(start), nextUtcHour(Date.now())];
    for (const state of [consumed.value, peeked.value, ...burst.value]) {
      expect(state).toMatchObject({ limit: 100, remaining: 100, success: true });
      expect(boundaries).toContain(state.reset);
    }
    expect(logged).toHaveBeenCalledTimes(1);
  });
});

describe.skipIf(!process.env.REDIS_URL)("a store that answers while the server is busy (REDIS_URL)", () => {
  it("is not taken for down: its answer, waiting behind a blocked event loop, wins over the timeout", async () => {
    const logged = vi.spyOn(log, "error").mockImplementation(() => {});
    const limiter = createRateLimiter({ redisUrl: process.env.REDIS_URL, prefix: `busy-${Date.now()}-${process.pid}` });
    await limiter.consume("warm-up", 1);
    // Two requests of a budget of one, sent while the server's own work holds the event loop past
    // the store's timeout: Redis answers at once, the answers wait on the socket.
    const answers = Promise.all([limiter.consume("account", 1), limiter.consume("account", 1)]);
    const blockedUntil = Date.now() + 800;
    while (Date.now() < blockedUntil);
    expect((await answers).map((state) => state.success)).toEqual([true, false]);
    expect(logged).not.toHaveBeenCalled();
  });
});
