import "server-only";
import { env } from "~/env";
import { createRateLimiter, type RateLimiter, type SharedStoreConfig } from "./index";

/** The rate-limit store the environment configures: Upstash, else REDIS_URL, else none (in process). */
export const configuredStore = (): SharedStoreConfig => ({ upstashUrl: env.UPSTASH_REDIS_REST_URL, upstashToken: env.UPSTASH_REDIS_REST_TOKEN, redisUrl: env.REDIS_URL });

// One limiter per prefix and process: an in-process store must be the same for every caller.
const limiters = new Map<string, RateLimiter>();

/** The limiter on the configured store (Upstash, else REDIS_URL, else in process), its keys under `prefix` (the library's own without one). */
export function configuredRateLimiter(prefix?: string): RateLimiter {
  let limiter = limiters.get(prefix ?? "");
  if (!limiter) {
    limiter = createRateLimiter({ ...configuredStore(), prefix });
    limiters.set(prefix ?? "", limiter);
  }
  return limiter;
}
