import { Ratelimit } from "@upstash/ratelimit";
import type { Redis } from "@upstash/redis";

import type { RateLimiter } from "./types";

/** The only client methods @upstash/ratelimit's fixedWindow calls, for limit() and getRemaining(). */
export type ScriptClient = Pick<Redis, "eval" | "evalsha">;

/** Hourly fixed windows of @upstash/ratelimit over an Upstash REST client or the TCP adapter. */
export function createUpstashLimiter(redis: ScriptClient, prefix: string | undefined): RateLimiter {
  const byLimit = new Map<number, Ratelimit>();

  function ratelimitFor(limit: number): Ratelimit {
    let ratelimit = byLimit.get(limit);
    if (!ratelimit) {
      ratelimit = new Ratelimit({
        redis: redis as Redis,
        prefix,
        limiter: Ratelimit.fixedWindow(limit, "1 h"),
        // Its in-memory block cache would keep rejecting an identifier whose budget was cleared or
        // raised elsewhere: answers must come from the store alone.
        ephemeralCache: false,
        // Its timeout answers with limit 0 and logs nothing; the caller's fail-open wrapper times out instead.
        timeout: 0,
      });
      byLimit.set(limit, ratelimit);
    }
    return ratelimit;
  }

  return {
    async consume(identifier, limit) {
      const { success, remaining, reset } = await ratelimitFor(limit).limit(identifier);
      return { limit, remaining, reset, success };
    },
    async peek(identifier, limit) {
      const { remaining, reset } = await ratelimitFor(limit).getRemaining(identifier);
      return { limit, remaining, reset, success: remaining > 0 };
    },
  };
}
