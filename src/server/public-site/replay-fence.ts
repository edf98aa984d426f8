import "server-only";
import { getSqlPool, type SqlPool } from "../db";
import { hasReplicas, primaryPosition, readOnReplica } from "../db/replicas";
import { log } from "../runtime/log";
import { publicPageCache, type PublicPageCache } from "./cache";

/**
 * Which database the public cache (./cache.ts) is filled from (docs/read-replicas.md, The lag
 * rule): a read replica only once it has replayed past the primary's WAL position read after the
 * last change this process learnt of (a notice, its own write, listening proven anew) and after
 * the last answer it made from the primary, so nothing it serves is older than a change that made
 * it forget an answer, or than an answer it served before. Until that position is known, and
 * while the cache does not hear changes (no proven listener: it cannot know what to wait for, e.g.
 * on Vercel), the primary.
 */
export class ReplayFence {
  /** The WAL position a replica must have replayed to. */
  private position = 0n;
  /** Moves of the primary learnt, and those whose position is in `position`; one at first, as nothing is known yet. */
  private moves = 1;
  private covered = 0;
  private reading: Promise<void> | undefined;

  constructor(private readonly readPosition: () => Promise<bigint>) {}

  /** The primary holds something a replica may lack: its position is read now, after it. */
  moved(): void {
    this.moves++;
    this.reading ??= this.cover();
  }

  private async cover(): Promise<void> {
    try {
      while (this.covered < this.moves) {
        const upTo = this.moves;
        const position = await this.readPosition();
        if (position > this.position) this.position = position;
        this.covered = upTo;
      }
    } catch (error) {
      // Left uncovered: reads stay on the primary, and the next one asks again.
      log.warn({ cause: (error as Error).message }, "public page cache: cannot read the primary's WAL position");
    } finally {
      this.reading = undefined;
    }
  }

  /** The position a replica must have replayed to; null while it is not known (read from the primary). */
  async required(): Promise<bigint | null> {
    if (this.covered < this.moves) await (this.reading ??= this.cover());
    return this.covered < this.moves ? null : this.position;
  }

  /** Runs `read` on a replica past the fence, else on the primary (whose position the fence then moves past). */
  async read<T>(cache: PublicPageCache, read: (pool: SqlPool) => Promise<T>): Promise<T> {
    // Not hearing changes, all reads are the primary's; it is proven anew before a replica serves again (./cache.ts).
    if (!hasReplicas() || !cache.hearsChanges(Date.now())) return read(getSqlPool());
    const required = await this.required();
    const { value, replayed } = required === null ? { value: await read(getSqlPool()), replayed: null } : await readOnReplica(required, ({ pool }) => read(pool));
    if (replayed === null) this.moved();
    // Another replica, further behind, is not to serve older answers after this one.
    else if (replayed > this.position) this.position = replayed;
    return value;
  }
}

// One per process, beside the cache it guards; made at the first read.
let fence: ReplayFence | undefined;

function createFence(): ReplayFence {
  const fence = new ReplayFence(primaryPosition);
  publicPageCache.watchChanges(() => hasReplicas() && fence.moved());
  return fence;
}

/** The public site's reads (./answers.ts): on a replica past the fence, else on the primary. */
export function readPublicContent<T>(read: (pool: SqlPool) => Promise<T>): Promise<T> {
  fence ??= createFence();
  return fence.read(publicPageCache, read);
}
