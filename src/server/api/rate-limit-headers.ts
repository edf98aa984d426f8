import type { RateLimitState } from "~/server/ratelimit";

/** The X-RateLimit-* headers of a bucket's state (README, The API). */
export function setRateLimitHeaders(headers: Headers, state: RateLimitState): void {
  headers.set("X-RateLimit-Limit", String(state.limit));
  headers.set("X-RateLimit-Remaining", String(Math.max(0, state.remaining)));
  headers.set("X-RateLimit-Reset", String(Math.ceil(state.reset / 1000)));
}

/** Retry-After, in whole seconds until the bucket's window resets (at least 1). */
export function setRetryAfter(headers: Headers, state: RateLimitState): void {
  headers.set("Retry-After", String(Math.max(1, Math.ceil((state.reset - Date.now()) / 1000))));
}

/** The limit's rule and when it resets, as a 429's details say it. */
export function resetDetails(rule: string, state: RateLimitState): string {
  return `${rule}; the limit resets at ${new Date(state.reset).toISOString()}`;
}
