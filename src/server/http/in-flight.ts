import "server-only";
/**
 * The work a server has started and not finished: requests being answered and the work after
 * their answers (usage, "Last Used"). A draining server (src/server/http/server.ts, SIGTERM) waits
 * for it before it flushes and exits, so a rolling restart loses no request and no count.
 */
export interface InFlight {
  /** Counts `work` until it settles (whether it succeeds or fails). */
  track(work: Promise<unknown>): void;
  readonly size: number;
  /** Settles once nothing is in flight (work tracked meanwhile included), or after `limitMs`; true if nothing is. */
  drained(limitMs: number): Promise<boolean>;
}

export function createInFlight(): InFlight {
  const pending = new Set<Promise<unknown>>();
  return {
    track(work) {
      const settled = work.then(
        () => undefined,
        () => undefined,
      );
      pending.add(settled);
      void settled.then(() => pending.delete(settled));
    },
    get size() {
      return pending.size;
    },
    async drained(limitMs) {
      let timer: NodeJS.Timeout | undefined;
      const limit = new Promise<"limit">((resolve) => (timer = setTimeout(() => resolve("limit"), limitMs)));
      try {
        while (pending.size > 0) {
          if ((await Promise.race([Promise.all(pending), limit])) === "limit") return false;
        }
        return true;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
