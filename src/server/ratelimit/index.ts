import "server-only";
import { Redis as UpstashRedis } from "@upstash/redis";
import { log } from "~/server/runtime/log";

import { createMemoryLimiter } from "./memory";
import { redisScriptClient } from "./redis-tcp";
import type { RateLimiter } from "./types";
import { createUpstashLimiter, type ScriptClient } from "./upstash";
import { endOfWindow, HOUR_SECONDS } from "./window";

export type { RateLimiter, RateLimitState } from "./types";

/** Leaves headroom under the 1 s within which a request must be served when the store is down. */
const STORE_TIMEOUT_MS = 500;

/**
 * Upstash REST when its URL and token are given, else Redis over TCP when `redisUrl` is, else an
 * in-process store (single-process development only). Remote stores fail open.
 */
export function createRateLimiter(config: SharedStoreConfig & { prefix?: string }): RateLimiter {
  const store = sharedStoreClient(config);
  return store ? failOpen(createUpstashLimiter(store, config.prefix)) : createMemoryLimiter();
}

export interface SharedStoreConfig {
  upstashUrl?: string;
  upstashToken?: string;
  redisUrl?: string;
}

/** The shared store rate limits use (Upstash REST, else Redis over TCP), or null for in-process. */
export function sharedStoreClient({ upstashUrl, upstashToken, redisUrl }: SharedStoreConfig): ScriptClient | null {
  if (upstashUrl && upstashToken) return new UpstashRedis({ url: upstashUrl, token: upstashToken });
  if (redisUrl) return redisScriptClient(redisUrl);
  return null;
}

/** Serves requests unlimited while the store fails or is slow, logging once per incident. */
function failOpen(store: RateLimiter): RateLimiter {
  const guarded = storeGuard({
    unavailable: "rate-limit store unavailable; serving requests without limits",
    recovered: "rate-limit store answers again; limits apply",
  });
  const guard =
    (call: RateLimiter["consume"]): RateLimiter["consume"] =>
    (identifier, limit, windowSeconds = HOUR_SECONDS) =>
      guarded(call(identifier, limit, windowSeconds), () => ({
        limit,
        remaining: limit,
        reset: endOfWindow(Date.now(), windowSeconds),
        success: true,
      }));

  return {
    consume: guard((identifier, limit, windowSeconds) => store.consume(identifier, limit, windowSeconds)),
    peek: guard((identifier, limit, windowSeconds) => store.peek(identifier, limit, windowSeconds)),
  };
}

/**
 * Calls to a shared store (rate limits, sign-in backoff) that fail open: an answer within
 * STORE_TIMEOUT_MS, else the caller's fallback, with one log line when the store starts failing
 * and one when it answers again.
 */
export function storeGuard(messages: { unavailable: string; recovered: string }) {
  let failing = false;
  return async function guarded<T>(call: Promise<T>, fallback: () => T): Promise<T> {
    try {
      const result = await withTimeout(call, STORE_TIMEOUT_MS);
      if (failing) {
        failing = false;
        log.info(messages.recovered);
      }
      return result;
    } catch (error) {
      if (!failing) {
        failing = true;
        log.error({ err: error }, messages.unavailable);
      }
      return fallback();
    }
  };
}

/**
 * `promise`, or a rejection once `ms` have passed without its answer. The rejection waits for the
 * event loop's next check phase (setImmediate), after the I/O already received is handled: when the
 * server's own work held the loop past `ms`, the timer and the store's waiting answer are both due,
 * and timers run first; the answer must win, or a busy server would fail open (and let requests past
 * their limit) while the store is fine (tests/ratelimit/fail-open.test.ts).
 */
function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let check: ReturnType<typeof setImmediate> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => (check = setImmediate(() => reject(new Error(`no answer within ${ms} ms`)))), ms);
  });
  return Promise.race([promise, timeout]).finally(() => {
    clearTimeout(timer);
    clearImmediate(check);
  });
}
