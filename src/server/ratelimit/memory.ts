import type { RateLimiter } from "./types";
import { endOfUtcHour } from "./window";

/**
 * Hourly counters in this process, for single-process development. Each call runs to completion
 * without awaiting, so concurrent consume() calls cannot over-admit.
 */
export function createMemoryLimiter(): RateLimiter {
  let windowReset = 0;
  let used = new Map<string, number>();

  // Only the current hour's counts are kept: a new hour starts an empty map, so memory stays bounded.
  function currentCounts(): Map<string, number> {
    const reset = endOfUtcHour(Date.now());
    if (reset !== windowReset) {
      windowReset = reset;
      used = new Map();
    }
    return used;
  }

  return {
    async consume(identifier, limit) {
      const counts = currentCounts();
      const count = (counts.get(identifier) ?? 0) + 1;
      counts.set(identifier, count);
      return { limit, remaining: Math.max(0, limit - count), reset: windowReset, success: count <= limit };
    },
    async peek(identifier, limit) {
      const count = currentCounts().get(identifier) ?? 0;
      return { limit, remaining: Math.max(0, limit - count), reset: windowReset, success: count < limit };
    },
  };
}
