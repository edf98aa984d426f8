import "server-only";
// The tail of each key's queue; a key's entry goes when its queue empties, so the map stays small.
// On globalThis: the production server's API handler and Next's /api/trpc route each load this
// module, and an account's creates through both must share one queue.
const globalForQueues = globalThis as unknown as { quotaQueues?: Map<string, Promise<unknown>> };
const queues = (globalForQueues.quotaQueues ??= new Map());

/**
 * Runs `work` after every earlier call with the same key has settled, within this process. A quota
 * check and the create it allows then see each other's writes: racing creates of one account on
 * one server cannot pass the same last free place (docs/security.md, Quotas, states the margin across
 * several server instances).
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
