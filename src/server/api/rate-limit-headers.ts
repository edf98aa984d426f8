import "server-only";
import type { RateLimitState } from "~/server/ratelimit";
import type { PolicyRateLimitState } from "~/server/ratelimit/account-rate";

/** What a bucket's state reports: the three X-RateLimit numbers (README, The API), and how much of the window is used. */
export function rateLimitReport(state: RateLimitState) {
  const remaining = Math.max(0, Math.min(state.limit, state.remaining));
  return { limit: state.limit, used: state.limit - remaining, remaining, reset: Math.ceil(state.reset / 1000) };
}

/**
 * A bucket's state in headers (README, The API): X-RateLimit-Limit, -Remaining and
 * -Reset, X-RateLimit-Used, and the same state as the IETF RateLimit-Policy and RateLimit fields
 * (structured fields: the policy's name, its quota and window; what remains and the seconds until
 * the window resets).
 */
export function setRateLimitHeaders(headers: Pick<Headers, "set">, state: PolicyRateLimitState): void {
  const { limit, used, remaining, reset } = rateLimitReport(state);
  headers.set("X-RateLimit-Limit", String(limit));
  headers.set("X-RateLimit-Remaining", String(remaining));
  headers.set("X-RateLimit-Reset", String(reset));
  headers.set("X-RateLimit-Used", String(used));
  headers.set("RateLimit-Policy", `"${state.policy}";q=${limit};w=${state.windowSeconds}`);
  headers.set("RateLimit", `"${state.policy}";r=${remaining};t=${secondsUntil(state.reset, 0)}`);
}

/** Whole seconds from now until `at` (Unix ms), at least `floor`. */
function secondsUntil(at: number, floor: number): number {
  return Math.max(floor, Math.ceil((at - Date.now()) / 1000));
}

/** Retry-After, in whole seconds until the bucket's window resets (at least 1). */
export function setRetryAfter(headers: Pick<Headers, "set">, state: RateLimitState): void {
  headers.set("Retry-After", String(secondsUntil(state.reset, 1)));
}

/** The limit's rule and when it resets, as a 429's details say it. */
export function resetDetails(rule: string, state: RateLimitState): string {
  return `${rule}; the limit resets at ${new Date(state.reset).toISOString()}`;
}
