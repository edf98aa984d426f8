import "server-only";
import { LRUCache } from "lru-cache";
import { MEMORY_LIMITER_MAX_ENTRIES, storageKey } from "./memory";
import { storeGuard } from "./index";
import type { ScriptClient } from "./upstash";

export interface BackoffPolicy {
  /** Attempts allowed in a row without a success before each further one must wait. */
  freeAttempts: number;
  /** Wait after the last free attempt; it doubles with every attempt after that. */
  firstDelaySeconds: number;
  maxDelaySeconds: number;
  /** Attempts are forgotten this long after the last one. */
  forgetAfterSeconds: number;
}

/**
 * Attempts that must not repeat freely (sign-in for one email): counted until one succeeds; past
 * `freeAttempts`, every attempt locks the subject for a delay that doubles each time.
 */
export interface Backoff {
  /** Counts an attempt; 0 if it may go ahead, else the seconds to wait (and it is not counted). */
  attempt(subject: string): Promise<number>;
  /** The subject succeeded: its count starts again. */
  succeeded(subject: string): Promise<void>;
}

/** The wait set after the `attempts`-th attempt in a row, in ms (0 while attempts are free). */
function delayAfter(attempts: number, policy: BackoffPolicy): number {
  if (attempts < policy.freeAttempts) return 0;
  return Math.min(policy.firstDelaySeconds * 2 ** (attempts - policy.freeAttempts), policy.maxDelaySeconds) * 1000;
}

const toSeconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/** Shared store when given (every instance sees the same counts), else this process's memory. */
export function createBackoff(name: string, policy: BackoffPolicy, store: ScriptClient | null): Backoff {
  return store ? failOpen(name, sharedBackoff(name, policy, store)) : memoryBackoff(policy);
}

function memoryBackoff(policy: BackoffPolicy): Backoff {
  // Bounded like the in-process limiter: a flood of made-up subjects evicts the oldest.
  const subjects = new LRUCache<string, { attempts: number; lockedUntil: number }>({
    max: MEMORY_LIMITER_MAX_ENTRIES,
    ttl: policy.forgetAfterSeconds * 1000,
  });
  return {
    async attempt(subject) {
      const key = storageKey(subject);
      const now = Date.now();
      const state = subjects.get(key) ?? { attempts: 0, lockedUntil: 0 };
      if (state.lockedUntil > now) return toSeconds(state.lockedUntil - now);
      const attempts = state.attempts + 1;
      subjects.set(key, { attempts, lockedUntil: now + delayAfter(attempts, policy) });
      return 0;
    },
    async succeeded(subject) {
      subjects.delete(storageKey(subject));
    },
  };
}

// KEYS: attempts, lock. ARGV: forget after (ms), free attempts, first delay (ms), max delay (ms).
// One script, so concurrent attempts from many instances cannot all pass a stale count.
const ATTEMPT_SCRIPT = `
local wait = redis.call('PTTL', KEYS[2])
if wait > 0 then return wait end
local attempts = redis.call('INCR', KEYS[1])
redis.call('PEXPIRE', KEYS[1], ARGV[1])
local free = tonumber(ARGV[2])
if attempts >= free then
  local delay = math.min(tonumber(ARGV[3]) * 2 ^ (attempts - free), tonumber(ARGV[4]))
  redis.call('SET', KEYS[2], '1', 'PX', math.floor(delay))
end
return 0`;

const SUCCEEDED_SCRIPT = `return redis.call('DEL', KEYS[1], KEYS[2])`;

function sharedBackoff(name: string, policy: BackoffPolicy, store: ScriptClient): Backoff {
  const keys = (subject: string) => [`backoff:${name}:${subject}:attempts`, `backoff:${name}:${subject}:lock`];
  return {
    async attempt(subject) {
      const wait = await store.eval<number[], number>(ATTEMPT_SCRIPT, keys(subject), [
        policy.forgetAfterSeconds * 1000,
        policy.freeAttempts,
        policy.firstDelaySeconds * 1000,
        policy.maxDelaySeconds * 1000,
      ]);
      return wait > 0 ? toSeconds(wait) : 0;
    },
    async succeeded(subject) {
      await store.eval<[], number>(SUCCEEDED_SCRIPT, keys(subject), []);
    },
  };
}

/** While the store fails or is slow, attempts go ahead (as rate limits do), logged once per incident. */
function failOpen(name: string, backoff: Backoff): Backoff {
  const guarded = storeGuard({
    unavailable: `backoff store unavailable (${name}); attempts go ahead unthrottled`,
    recovered: `backoff store answers again (${name})`,
  });
  return {
    attempt: (subject) => guarded(backoff.attempt(subject), () => 0),
    succeeded: (subject) => guarded(backoff.succeeded(subject), () => undefined),
  };
}
