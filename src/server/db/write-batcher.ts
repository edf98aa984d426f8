import "server-only";
/**
 * Counts gathered in memory and written in one statement about once a second, instead of one
 * write per request: under load, many requests would otherwise queue on the same daily row. The
 * API's usage (src/server/usage/usage-batch.ts) and readers' views (src/server/views/view-batch.ts)
 * batch this way; each says what a batch holds, how an item joins it and how it is written.
 */
import { log } from "~/server/runtime/log";

export interface WriteBatcher<Item> {
  /** Adds one item; resolves once the batch holding it is written (or its write failed, which is logged). */
  record(item: Item): Promise<void>;
  /** Writes what is pending now, and waits for the batches already being written. */
  flush(): Promise<void>;
}

export interface BatchRules<Item, Pending> {
  /** What is logged when a write fails. */
  name: string;
  /** An empty batch. */
  start(): Pending;
  add(pending: Pending, item: Item): void;
  /** Whether the batch is written at once, without waiting for the timer. */
  full(pending: Pending): boolean;
  write(pending: Pending): Promise<void>;
  intervalMs: number;
}

interface Batch<Pending> {
  pending: Pending;
  written: Promise<void>;
  resolve: () => void;
}

export function createWriteBatcher<Item, Pending>(rules: BatchRules<Item, Pending>): WriteBatcher<Item> {
  let current: Batch<Pending> | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  // Batches handed to the database and not settled yet: a flush waits for them too, so what was
  // recorded before it is written when it resolves, whoever started the write.
  const writing = new Set<Promise<void>>();

  async function writeCurrent(): Promise<void> {
    const batch = current;
    if (!batch) return;
    current = undefined;
    clearTimeout(timer);
    timer = undefined;
    writing.add(batch.written);
    try {
      await rules.write(batch.pending);
    } catch (error) {
      log.error({ err: error }, `could not write the batched ${rules.name}`);
    } finally {
      writing.delete(batch.written);
      batch.resolve();
    }
  }

  return {
    record(item) {
      if (!current) {
        let resolve!: () => void;
        const written = new Promise<void>((r) => (resolve = r));
        current = { pending: rules.start(), written, resolve };
      }
      const batch = current;
      rules.add(batch.pending, item);
      if (rules.full(batch.pending)) void writeCurrent();
      else timer ??= setTimeout(() => void writeCurrent(), rules.intervalMs);
      return batch.written;
    },
    async flush() {
      const earlier = [...writing];
      await Promise.all([...earlier, writeCurrent()]);
    },
  };
}

/**
 * Rows of a batch in the order of their keys: concurrent flushes (several server instances) lock
 * the same rows in the same order, so they never deadlock.
 */
export function rowsInKeyOrder<Row>(rows: Map<string, Row>): Row[] {
  return [...rows.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
}
