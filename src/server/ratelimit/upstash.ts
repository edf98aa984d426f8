import "server-only";
import { Ratelimit } from "@upstash/ratelimit";
import type { Redis } from "@upstash/redis";

import type { RateLimiter, RateLimitState } from "./types";
import { HOUR_SECONDS } from "./window";

/** The only client methods @upstash/ratelimit's fixedWindow calls, for limit() and getRemaining(). */
export type ScriptClient = Pick<Redis, "eval" | "evalsha">;

/** Fixed windows of @upstash/ratelimit over an Upstash REST client or the TCP adapter. */
export function createUpstashLimiter(redis: ScriptClient, prefix: string | undefined): RateLimiter {
  const byRule = new Map<string, Ratelimit>();

  function ratelimitFor(limit: number, windowSeconds: number): Ratelimit {
    const rule = `${limit}/${windowSeconds}`;
    let ratelimit = byRule.get(rule);
    if (!ratelimit) {
      ratelimit = new Ratelimit({
        redis: redis as Redis,
        prefix,
        limiter: Ratelimit.fixedWindow(limit, `${windowSeconds} s`),
        // Its in-memory block cache would keep rejecting an identifier whose budget was cleared or
        // raised elsewhere: answers must come from the store alone.
        ephemeralCache: false,
        // Its timeout answers with limit 0 and logs nothing; the caller's fail-open wrapper times out instead.
        timeout: 0,
      });
      byRule.set(rule, ratelimit);
    }
    return ratelimit;
  }

  return {
    async consume(identifier, limit, windowSeconds = HOUR_SECONDS) {
      const { success, remaining, reset } = await ratelimitFor(limit, windowSeconds).limit(identifier);
      return checkedState({ limit, remaining, reset, success });
    },
    async peek(identifier, limit, windowSeconds = HOUR_SECONDS) {
      const { remaining, reset } = await ratelimitFor(limit, windowSeconds).getRemaining(identifier);
      return checkedState({ limit, remaining, reset, success: remaining > 0 });
    },
  };
}

/**
 * The store's answer is untrusted input (docs/security.md): counts that are not whole numbers
 * within the limit (a store answering garbage, the wrong type or a foreign key's value) are the
 * store failing, served through by the caller's fail-open wrapper, never a verdict on a request.
 */
function checkedState(state: RateLimitState): RateLimitState {
  const { limit, remaining, reset } = state;
  if (Number.isInteger(remaining) && remaining >= 0 && remaining <= limit && Number.isFinite(reset)) return state;
  throw new Error(`the store answered an invalid count (remaining: ${JSON.stringify(remaining)})`);
}
