import "server-only";
// The tail of each key's queue; a key's entry goes when its queue empties, so the map stays small.
// On globalThis: the production server's API handler and Next's /api/trpc route each load this
// module, and work through both must share one queue.
const globalForQueues = globalThis as unknown as { oneAtATimeQueues?: Map<string, Promise<unknown>> };
const queues = (globalForQueues.oneAtATimeQueues ??= new Map());

/**
 * Runs `work` after every earlier call with the same key has settled, within this process (image
 * processing, one upload at a time). Not for what must hold across server instances: quotas take
 * the account's row lock (src/server/quotas/account-lock.ts).
 */
export function oneAtATime<T>(key: string, work: () => Promise<T>): Promise<T> {
  const previous = queues.get(key) ?? Promise.resolve();
  const result = previous.then(work);
  const tail = result.catch(() => undefined);
  queues.set(key, tail);
  void tail.then(() => {
    if (queues.get(key) === tail) queues.delete(key);
  });
  return result;
}
