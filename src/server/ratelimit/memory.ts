import "server-only";
import { createHash } from "node:crypto";
import { LRUCache } from "lru-cache";
import type { RateLimiter } from "./types";
import { endOfWindow, HOUR_SECONDS } from "./window";

/**
 * Counters kept at most: a flood of distinct identifiers (e.g. made-up addresses) evicts the
 * least recently used ones instead of growing the process without bound.
 */
export const MEMORY_LIMITER_MAX_ENTRIES = 100_000;

// V8 hashes a string longer than 16,383 characters by its length alone: long identifiers of one
// length would all collide in the cache's map, each lookup comparing them all. Kept by digest instead.
const LONGEST_PLAIN_IDENTIFIER = 256;
export const storageKey = (identifier: string) =>
  identifier.length <= LONGEST_PLAIN_IDENTIFIER ? identifier : `sha256:${createHash("sha256").update(identifier).digest("base64")}`;

interface WindowCount {
  /** Unix ms when the window ends. */
  reset: number;
  used: number;
}

/** The in-process limiter, with how many counters it holds now. */
export type MemoryLimiter = RateLimiter & { readonly entryCount: number };

/**
 * Fixed-window counters in this process, for single-process setups. Exact for every counter it
 * keeps; only the least recently used are dropped beyond `maxEntries`. Each call runs to
 * completion without awaiting, so concurrent consume() calls cannot over-admit.
 */
export function createMemoryLimiter(maxEntries = MEMORY_LIMITER_MAX_ENTRIES): MemoryLimiter {
  const counts = new LRUCache<string, WindowCount>({ max: maxEntries });

  function current(identifier: string, windowSeconds: number): { key: string; count: WindowCount } {
    const key = `${windowSeconds}:${storageKey(identifier)}`;
    const reset = endOfWindow(Date.now(), windowSeconds);
    const count = counts.get(key);
    return { key, count: count && count.reset === reset ? count : { reset, used: 0 } };
  }

  return {
    get entryCount() {
      return counts.size;
    },
    async consume(identifier, limit, windowSeconds = HOUR_SECONDS) {
      const { key, count } = current(identifier, windowSeconds);
      const used = count.used + 1;
      counts.set(key, { reset: count.reset, used });
      return { limit, remaining: Math.max(0, limit - used), reset: count.reset, success: used <= limit };
    },
    async peek(identifier, limit, windowSeconds = HOUR_SECONDS) {
      const { count } = current(identifier, windowSeconds);
      return { limit, remaining: Math.max(0, limit - count.used), reset: count.reset, success: count.used < limit };
    },
  };
}
