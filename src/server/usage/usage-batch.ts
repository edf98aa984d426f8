import "server-only";
/**
 * Usage records are aggregated in memory and written in one statement about once a second,
 * instead of one upsert per request: under load, many requests of one account, key and endpoint
 * would otherwise queue on the same usage_daily row. A request's record resolves when the batch
 * holding it is written, so the pending-writes tracker (analytics' read-your-writes) keeps
 * working; an analytics read asks for an immediate flush instead of waiting for the timer.
 */
import type { SqlPool } from "~/server/db";
import { formatCalendarDate } from "~/shared/calendar-date";
import { log } from "~/server/log";
import type { UsageCounts } from "./analytics";
import { onUsageSettleRequested } from "./pending-writes";
import { outcomeOf, type ApiRequestRecord } from "./record-request";

/**
 * Usage rows of many requests in one statement: arrays of equal length, one element per
 * (account, day, key, method, path), added to the day's counters. Rows are sent sorted by their
 * key, so concurrent flushes (several server instances) lock them in the same order.
 */
const USAGE_FLUSH_SQL = `INSERT INTO "usage_daily" ("userId", "day", "keyId", "method", "path", "requests", "succeeded", "clientErrors", "serverErrors", "rateLimited", "notModified")
SELECT u.* FROM unnest($1::text[], $2::date[], $3::text[], $4::text[], $5::text[], $6::int[], $7::int[], $8::int[], $9::int[], $10::int[], $11::int[])
  AS u("userId", "day", "keyId", "method", "path", "requests", "succeeded", "clientErrors", "serverErrors", "rateLimited", "notModified")
-- A key deleted since (with its account) takes its usage with it, as the foreign key's cascade does.
WHERE EXISTS (SELECT 1 FROM "api_key" AS k WHERE k."id" = u."keyId")
ON CONFLICT ("userId", "day", "keyId", "method", "path") DO UPDATE SET
  "requests" = "usage_daily"."requests" + EXCLUDED."requests",
  "succeeded" = "usage_daily"."succeeded" + EXCLUDED."succeeded",
  "clientErrors" = "usage_daily"."clientErrors" + EXCLUDED."clientErrors",
  "serverErrors" = "usage_daily"."serverErrors" + EXCLUDED."serverErrors",
  "rateLimited" = "usage_daily"."rateLimited" + EXCLUDED."rateLimited",
  "notModified" = "usage_daily"."notModified" + EXCLUDED."notModified"`;

const FLUSH_INTERVAL_MS = 1_000;
/** A batch this large is written at once, without waiting for the timer. */
const MAX_BATCH_ROWS = 2_000;

interface Batch {
  rows: Map<string, { userId: string; day: string; keyId: string; method: string; path: string } & UsageCounts>;
  written: Promise<void>;
  resolve: () => void;
}

export interface UsageBatcher {
  /** Adds one request; resolves once it is written (or its write failed, which is logged). */
  record(record: ApiRequestRecord): Promise<void>;
  /** Writes what is pending now. */
  flush(): Promise<void>;
}

export function createUsageBatcher(sql: () => SqlPool, intervalMs = FLUSH_INTERVAL_MS): UsageBatcher {
  let current: Batch | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;

  function newBatch(): Batch {
    let resolve!: () => void;
    const written = new Promise<void>((r) => (resolve = r));
    return { rows: new Map(), written, resolve };
  }

  async function flush(): Promise<void> {
    const batch = current;
    if (!batch) return;
    current = undefined;
    clearTimeout(timer);
    timer = undefined;
    // Sorted by key: concurrent flushes (other instances) lock the same rows in the same order.
    const rows = [...batch.rows.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
    try {
      await sql().query(USAGE_FLUSH_SQL, [
        rows.map((r) => r.userId),
        rows.map((r) => r.day),
        rows.map((r) => r.keyId),
        rows.map((r) => r.method),
        rows.map((r) => r.path),
        rows.map((r) => r.requests),
        rows.map((r) => r.succeeded),
        rows.map((r) => r.clientErrors),
        rows.map((r) => r.serverErrors),
        rows.map((r) => r.rateLimited),
        rows.map((r) => r.notModified),
      ]);
    } catch (error) {
      log.error({ err: error, rows: rows.length }, "could not record usage rows");
    } finally {
      batch.resolve();
    }
  }

  return {
    record(record) {
      current ??= newBatch();
      const batch = current;
      const day = formatCalendarDate(record.at);
      const id = `${record.accountId}\u0000${day}\u0000${record.keyId}\u0000${record.method}\u0000${record.path}`;
      let row = batch.rows.get(id);
      if (!row) {
        row = { userId: record.accountId, day, keyId: record.keyId, method: record.method, path: record.path, requests: 0, succeeded: 0, clientErrors: 0, serverErrors: 0, rateLimited: 0, notModified: 0 };
        batch.rows.set(id, row);
      }
      row.requests += 1;
      row[outcomeOf(record.status)] += 1;
      if (batch.rows.size >= MAX_BATCH_ROWS) void flush();
      else timer ??= setTimeout(() => void flush(), intervalMs);
      return batch.written;
    },
    flush,
  };
}

// One batcher per process (kept on globalThis so development hot reloads share it).
const globalForUsage = globalThis as unknown as { usageBatcher?: UsageBatcher };

export function usageBatcher(sql: () => SqlPool): UsageBatcher {
  if (!globalForUsage.usageBatcher) {
    const batcher = createUsageBatcher(sql);
    onUsageSettleRequested(() => batcher.flush());
    globalForUsage.usageBatcher = batcher;
  }
  return globalForUsage.usageBatcher;
}
