import { Redis as UpstashRedis } from "@upstash/redis";

import { createMemoryLimiter } from "./memory";
import { redisScriptClient } from "./redis-tcp";
import type { RateLimiter } from "./types";
import { createUpstashLimiter } from "./upstash";
import { endOfUtcHour } from "./window";

export type { RateLimiter, RateLimitState } from "./types";

export type Plan = "free" | "pro" | "enterprise";

export const PLAN_HOURLY_LIMITS: Record<Plan, number> = { free: 100, pro: 1000, enterprise: 10000 };

/** Leaves headroom under the 1 s within which a request must be served when the store is down. */
const STORE_TIMEOUT_MS = 500;

/**
 * Upstash REST when its URL and token are given, else Redis over TCP when `redisUrl` is, else an
 * in-process store (single-process development only). Remote stores fail open.
 */
export function createRateLimiter(config: {
  upstashUrl?: string;
  upstashToken?: string;
  redisUrl?: string;
  prefix?: string;
}): RateLimiter {
  const { upstashUrl, upstashToken, redisUrl, prefix } = config;
  if (upstashUrl && upstashToken) {
    return failOpen(createUpstashLimiter(new UpstashRedis({ url: upstashUrl, token: upstashToken }), prefix));
  }
  if (redisUrl) return failOpen(createUpstashLimiter(redisScriptClient(redisUrl), prefix));
  return createMemoryLimiter();
}

/** Serves requests unlimited while the store fails or is slow, logging once per incident. */
function failOpen(store: RateLimiter): RateLimiter {
  let failing = false;

  const guard =
    (call: RateLimiter["consume"]): RateLimiter["consume"] =>
    async (identifier, limit) => {
      try {
        const state = await withTimeout(call(identifier, limit), STORE_TIMEOUT_MS);
        if (failing) {
          failing = false;
          console.info("[ratelimit] store answers again; limits apply");
        }
        return state;
      } catch (error) {
        if (!failing) {
          failing = true;
          console.error("[ratelimit] store unavailable; serving requests without limits:", error);
        }
        return { limit, remaining: limit, reset: endOfUtcHour(Date.now()), success: true };
      }
    };

  return {
    consume: guard((identifier, limit) => store.consume(identifier, limit)),
    peek: guard((identifier, limit) => store.peek(identifier, limit)),
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
