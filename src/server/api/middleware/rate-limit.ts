import { env } from "~/env";
import { CLIENT_IP_HEADER, ipRateLimitSubject } from "~/server/client-ip";
import type { AuthenticatedKey } from "~/server/keys/authenticate";
import { createRateLimiter, type RateLimiter, type RateLimitState } from "~/server/ratelimit";
import { PLAN_HOURLY_LIMITS } from "~/shared/plans";
import { ApiError } from "../errors";

/** Unauthenticated requests are counted per client IP, only to report it: never a 429. */
const UNAUTHENTICATED_HOURLY_LIMIT = 100;

// One limiter per process, on globalThis: the production server's API handler and Next's own
// routes (the dashboard's usage page) load this module separately, and the in-process store
// must be the same for both.
const globalForLimiter = globalThis as unknown as { rateLimiter?: RateLimiter };

function rateLimiter(): RateLimiter {
  globalForLimiter.rateLimiter ??= createRateLimiter({
    upstashUrl: env.UPSTASH_REDIS_REST_URL,
    upstashToken: env.UPSTASH_REDIS_REST_TOKEN,
    redisUrl: env.REDIS_URL,
  });
  return globalForLimiter.rateLimiter;
}

const accountBucket = (apiKey: Pick<AuthenticatedKey, "accountId">) => `account:${apiKey.accountId}`;

/** The account's current window, without consuming it (the dashboard's usage page). */
export function peekAccountRate(account: Pick<AuthenticatedKey, "accountId" | "plan">): Promise<RateLimitState> {
  return rateLimiter().peek(accountBucket(account), PLAN_HOURLY_LIMITS[account.plan]);
}

/** Step 3 of the checks (README, The API): one unit of the account's hourly budget, shared by all its keys. */
export async function consumeAccountRate(resHeaders: Headers, apiKey: AuthenticatedKey): Promise<void> {
  const state = await rateLimiter().consume(accountBucket(apiKey), PLAN_HOURLY_LIMITS[apiKey.plan]);
  setRateLimitHeaders(resHeaders, state);
  if (!state.success) {
    refuseUntilReset(resHeaders, state, "Rate limit exceeded", `Hourly limit of ${state.limit} requests exceeded`);
  }
}

/**
 * Changes an owner may make in the dashboard in a UTC clock hour (docs/security.md): far above what
 * a person saves by hand, while a stolen session or a runaway script is held to a few a minute.
 * Counted apart from the API's budget, which stays the programs'.
 */
export const DASHBOARD_MUTATIONS_PER_HOUR = 300;

/** One unit of the owner's hourly budget of dashboard changes (every mutation, whatever its outcome). */
export async function consumeDashboardMutation(resHeaders: Headers, accountId: string): Promise<void> {
  const state = await rateLimiter().consume(`dashboard-mutations:${accountId}`, DASHBOARD_MUTATIONS_PER_HOUR);
  if (!state.success) {
    refuseUntilReset(resHeaders, state, "Too many changes", `At most ${state.limit} changes an hour can be made in the dashboard`);
  }
}

function refuseUntilReset(resHeaders: Headers, state: RateLimitState, message: string, rule: string): never {
  const retryAfterSeconds = Math.max(1, Math.ceil((state.reset - Date.now()) / 1000));
  resHeaders.set("Retry-After", String(retryAfterSeconds));
  throw new ApiError("RATE_LIMIT_EXCEEDED", message, `${rule}; the limit resets at ${new Date(state.reset).toISOString()}`);
}

/** The account's current state, for responses that must not consume (403, 404, 405). */
export async function reportAccountRate(resHeaders: Headers, apiKey: AuthenticatedKey): Promise<void> {
  setRateLimitHeaders(resHeaders, await rateLimiter().peek(accountBucket(apiKey), PLAN_HOURLY_LIMITS[apiKey.plan]));
}

/**
 * Counts a 401 against the client's IP bucket and reports it; the bucket never refuses. The
 * address is the one the REST handler determined (src/server/client-ip.ts).
 */
export async function countUnauthenticated(reqHeaders: Headers, resHeaders: Headers): Promise<void> {
  const ip = reqHeaders.get(CLIENT_IP_HEADER);
  const state = await rateLimiter().consume(`ip:${ipRateLimitSubject(ip)}`, UNAUTHENTICATED_HOURLY_LIMIT);
  setRateLimitHeaders(resHeaders, state);
}

function setRateLimitHeaders(headers: Headers, state: RateLimitState): void {
  headers.set("X-RateLimit-Limit", String(state.limit));
  headers.set("X-RateLimit-Remaining", String(Math.max(0, state.remaining)));
  headers.set("X-RateLimit-Reset", String(Math.ceil(state.reset / 1000)));
}
