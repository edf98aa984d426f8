import "server-only";
/**
 * Usage is recorded after the response (Next's `after`), so a client that asks for its analytics
 * right after a request could read the table before that request's row is written. This tracker
 * lets the analytics read wait for the writes still pending in this process, per account.
 *
 * A write is registered when the response is produced (before the client can see it), not when
 * the deferred task starts, and forgotten as soon as it settles: the tracker holds only what is
 * in flight. Writes pending on other server instances are not seen (best effort, as usage is).
 */

type Task = () => Promise<unknown>;

/** Longest an analytics read waits for pending writes; a stuck write only delays it this much. */
const MAX_WAIT_MS = 2_000;

// The handler registers, the analytics procedure waits.
const pendingByAccount = new Map<string, Set<Promise<void>>>();

/**
 * Registers a usage write of `accountId` now and returns the task that performs it, to hand to
 * `afterResponse`. The write counts as pending until the task has run and settled.
 */
export function trackUsageWrite(accountId: string, task: Task): Task {
  let finish!: () => void;
  const settled = new Promise<void>((resolve) => {
    finish = resolve;
  });
  let pending = pendingByAccount.get(accountId);
  if (!pending) pendingByAccount.set(accountId, (pending = new Set()));
  pending.add(settled);

  const forget = () => {
    const current = pendingByAccount.get(accountId);
    current?.delete(settled);
    if (current?.size === 0) pendingByAccount.delete(accountId);
    finish();
  };
  return async () => {
    try {
      return await task();
    } finally {
      forget();
    }
  };
}

// Writers that hold records back (batching) and can write them at once when a read asks.
const flushers = new Set<() => Promise<void>>();

/** Registers `flush`, called when a read wants the pending writes settled now. */
export function onUsageSettleRequested(flush: () => Promise<void>): void {
  flushers.add(flush);
}

/** Waits (at most MAX_WAIT_MS) for the usage writes of `accountId` registered so far to settle. */
export async function settlePendingUsageWrites(accountId: string, maxWaitMs = MAX_WAIT_MS): Promise<void> {
  const pending = pendingByAccount.get(accountId);
  if (!pending || pending.size === 0) return;
  for (const flush of flushers) void flush();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, maxWaitMs);
  });
  await Promise.race([Promise.all([...pending]), timeout]).finally(() => clearTimeout(timer));
}

/** How many usage writes are pending in this process (for tests and diagnostics). */
export function pendingUsageWriteCount(): number {
  let count = 0;
  for (const pending of pendingByAccount.values()) count += pending.size;
  return count;
}
