import "server-only";
import { env } from "~/env";
import { createRateLimiter, type RateLimiter, type SharedStoreConfig } from "./index";

/** The rate-limit store the environment configures: Upstash, else REDIS_URL, else none (in process). */
export const configuredStore = (): SharedStoreConfig => ({ upstashUrl: env.UPSTASH_REDIS_REST_URL, upstashToken: env.UPSTASH_REDIS_REST_TOKEN, redisUrl: env.REDIS_URL });

// One limiter per prefix and process, on globalThis: the production server's API handler and
// Next's own routes load these modules separately, and an in-process store must be the same for both.
const globalForLimiters = globalThis as unknown as { configuredRateLimiters?: Map<string, RateLimiter> };

/** The limiter on the configured store (Upstash, else REDIS_URL, else in process), its keys under `prefix` (the library's own without one). */
export function configuredRateLimiter(prefix?: string): RateLimiter {
  const limiters = (globalForLimiters.configuredRateLimiters ??= new Map());
  let limiter = limiters.get(prefix ?? "");
  if (!limiter) {
    limiter = createRateLimiter({ ...configuredStore(), prefix });
    limiters.set(prefix ?? "", limiter);
  }
  return limiter;
}
