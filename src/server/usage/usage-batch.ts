import "server-only";
/**
 * Usage records are aggregated in memory and written in one statement about once a second
 * (src/server/db/write-batcher.ts), instead of one upsert per request. A request's record resolves when the batch
 * holding it is written, so the pending-writes tracker (analytics' read-your-writes) keeps
 * working; an analytics read asks for an immediate flush instead of waiting for the timer.
 * The same flush writes each request to the request log and deletes each account's entries beyond
 * its newest REQUEST_LOG_PER_ACCOUNT, so the log stays bounded without work on any request's path.
 */
import type { SqlPool } from "~/server/db";
import { formatCalendarDate } from "~/shared/calendar-date";
import { log } from "~/server/runtime/log";
import { createWriteBatcher, rowsInKeyOrder, type WriteBatcher } from "~/server/db/write-batcher";
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

/** One row per request; a key deleted since is skipped, as in USAGE_FLUSH_SQL. */
const REQUEST_LOG_INSERT_SQL = `INSERT INTO "api_request_log" ("userId", "keyId", "at", "method", "path", "status", "latencyMs", "requestId", "errorCode", "query")
SELECT r.* FROM unnest($1::text[], $2::text[], $3::timestamptz[], $4::text[], $5::text[], $6::int[], $7::int[], $8::text[], $9::text[], $10::text[])
  AS r("userId", "keyId", "at", "method", "path", "status", "latencyMs", "requestId", "errorCode", "query")
WHERE EXISTS (SELECT 1 FROM "api_key" AS k WHERE k."id" = r."keyId")`;

/** Each account's log entries older than its newest $2 ($1: the accounts just written). */
const REQUEST_LOG_TRIM_SQL = `DELETE FROM "api_request_log" AS l
USING unnest($1::text[]) AS a("userId")
WHERE l."userId" = a."userId"
  AND l."id" <= (SELECT o."id" FROM "api_request_log" AS o WHERE o."userId" = a."userId" ORDER BY o."id" DESC OFFSET $2 LIMIT 1)`;

/** How many of its latest requests the log keeps per account. */
export const REQUEST_LOG_PER_ACCOUNT = 1_000;

const FLUSH_INTERVAL_MS = 1_000;
/** A batch of this many usage rows or requests is written at once, without waiting for the timer. */
const MAX_BATCH_ROWS = 2_000;
const MAX_BATCH_REQUESTS = 5_000;

interface PendingUsage {
  rows: Map<string, { userId: string; day: string; keyId: string; method: string; path: string } & UsageCounts>;
  requests: ApiRequestRecord[];
}

export type UsageBatcher = WriteBatcher<ApiRequestRecord>;

export function createUsageBatcher(sql: () => SqlPool, intervalMs = FLUSH_INTERVAL_MS): UsageBatcher {
  return createWriteBatcher<ApiRequestRecord, PendingUsage>({
    name: "usage",
    intervalMs,
    start: () => ({ rows: new Map(), requests: [] }),
    add(batch, record) {
      const day = formatCalendarDate(record.at);
      const id = `${record.accountId}\u0000${day}\u0000${record.keyId}\u0000${record.method}\u0000${record.path}`;
      let row = batch.rows.get(id);
      if (!row) {
        row = { userId: record.accountId, day, keyId: record.keyId, method: record.method, path: record.path, requests: 0, succeeded: 0, clientErrors: 0, serverErrors: 0, rateLimited: 0, notModified: 0 };
        batch.rows.set(id, row);
      }
      row.requests += 1;
      row[outcomeOf(record.status)] += 1;
      batch.requests.push(record);
    },
    full: (batch) => batch.rows.size >= MAX_BATCH_ROWS || batch.requests.length >= MAX_BATCH_REQUESTS,
    async write(batch) {
      const rows = rowsInKeyOrder(batch.rows);
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
      }
      try {
        await writeRequestLog(sql(), batch.requests);
      } catch (error) {
        log.error({ err: error, requests: batch.requests.length }, "could not write the request log");
      }
    },
  });
}

async function writeRequestLog(sql: SqlPool, requests: ApiRequestRecord[], keep = REQUEST_LOG_PER_ACCOUNT): Promise<void> {
  if (requests.length === 0) return;
  await sql.query(REQUEST_LOG_INSERT_SQL, [
    requests.map((r) => r.accountId),
    requests.map((r) => r.keyId),
    requests.map((r) => r.at),
    requests.map((r) => r.method),
    requests.map((r) => r.path),
    requests.map((r) => r.status),
    requests.map((r) => r.latencyMs),
    requests.map((r) => r.requestId),
    requests.map((r) => r.errorCode),
    requests.map((r) => r.query),
  ]);
  // Sorted: concurrent trims (other instances) take the accounts' rows in the same order.
  await sql.query(REQUEST_LOG_TRIM_SQL, [[...new Set(requests.map((r) => r.accountId))].sort(), keep]);
}

let processBatcher: UsageBatcher | undefined;

/** The process's one batcher. */
export function usageBatcher(sql: () => SqlPool): UsageBatcher {
  if (!processBatcher) {
    const batcher = (processBatcher = createUsageBatcher(sql));
    onUsageSettleRequested(() => batcher.flush());
  }
  return processBatcher;
}
