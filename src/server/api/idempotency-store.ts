import "server-only";
import { DAY_MS } from "~/shared/calendar-date";
import { Prisma } from "~/generated/prisma/client";
import type { Db, SqlPool } from "~/server/db";
import { retryIfConnectionLost } from "~/server/db/connection-errors";
import { log } from "~/server/runtime/log";
import { isLockTimeout } from "~/server/db/prisma-errors";

/** How long a first response is kept for retries. */
export const IDEMPOTENCY_TTL_MS = DAY_MS;
/** How long a retry waits for a first request with its key that is still running. */
const IN_PROGRESS_WAIT = "5s";
/** Prisma's limits for the transaction: waiting for a connection, then running (the wait above included). */
const TRANSACTION_OPTIONS = { maxWait: 10_000, timeout: 15_000 };

export interface StoredResponse {
  status: number;
  body: unknown;
}

export interface IdempotentRequest {
  accountId: string;
  key: string;
  /** What the request asks for, hashed: the same key with another hash is another request. */
  requestHash: string;
}

export type IdempotentOutcome =
  | { kind: "ran"; response: StoredResponse }
  | { kind: "replay"; response: StoredResponse }
  | { kind: "different-request" }
  | { kind: "still-running" };

/**
 * Runs `run` at most once per (account, key). The claim of the key, everything `run` writes and
 * the response it returns are one transaction: a crash or a lost connection at any point leaves
 * nothing behind, so a retry either finds the stored response (a replay) or runs afresh, and never
 * finds a key claimed without its response. A request with the same key arriving meanwhile waits on
 * the key's primary key until the first commits (then replays) or rolls back (then runs), for up to
 * IN_PROGRESS_WAIT. `run` must do all its database work on the transaction it is given. It throws
 * to store nothing (a failure worth retrying); an error response it returns (status 400 or above) is
 * stored without `run`'s writes. A transaction whose connection dies runs again (up to three times): all or
 * nothing of a run is committed, so the next run replays or runs afresh.
 */
export async function runOnce(
  db: Db,
  request: IdempotentRequest,
  run: (tx: Prisma.TransactionClient) => Promise<StoredResponse>,
): Promise<IdempotentOutcome> {
  const transaction = () =>
    db.$transaction(async (tx): Promise<IdempotentOutcome> => {
      const claimed = await claim(tx, request);
      if (claimed) return claimed;
      // Raw statements of the transaction stay on it (not the shared pool): they belong to its atomic whole.
      await tx.$executeRaw`SAVEPOINT idempotent_run`;
      const response = await run(tx);
      if (response.status >= 400) await tx.$executeRaw`ROLLBACK TO SAVEPOINT idempotent_run`;
      await tx.idempotencyRecord.update({
        where: { userId_key: { userId: request.accountId, key: request.key } },
        data: { status: response.status, body: response.body ?? undefined },
      });
      return { kind: "ran", response };
    }, TRANSACTION_OPTIONS);
  return retryIfConnectionLost(transaction);
}

/**
 * Inserts the key's record; undefined when that made it ours. A record that expired, or that has
 * no response (left by a version that stored it in a later transaction), is taken over.
 */
async function claim(tx: Prisma.TransactionClient, { accountId, key, requestHash }: IdempotentRequest): Promise<IdempotentOutcome | undefined> {
  const now = new Date();
  const fresh = { requestHash, createdAt: now, expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS) };
  try {
    await tx.$executeRawUnsafe(`SET LOCAL lock_timeout = '${IN_PROGRESS_WAIT}'`);
    for (;;) {
      const { count } = await tx.idempotencyRecord.createMany({ data: [{ userId: accountId, key, ...fresh }], skipDuplicates: true });
      if (count === 1) return undefined;
      const { count: takenOver } = await tx.idempotencyRecord.updateMany({
        where: { userId: accountId, key, OR: [{ expiresAt: { lte: now } }, { status: null }] },
        data: { ...fresh, status: null, body: Prisma.DbNull },
      });
      if (takenOver === 1) return undefined;
      const record = await tx.idempotencyRecord.findUnique({ where: { userId_key: { userId: accountId, key } } });
      // Gone between the statements (swept): claim it again.
      if (!record) continue;
      if (record.requestHash !== requestHash) return { kind: "different-request" };
      return { kind: "replay", response: { status: record.status!, body: record.body } };
    }
  } catch (error) {
    if (isLockTimeout(error)) return { kind: "still-running" };
    throw error;
  }
}

/** Expired records deleted per statement, and statements per sweep: a sweep stays cheap whatever the backlog. */
const SWEEP_BATCH = 500;
const SWEEP_MAX_BATCHES = 10;
const SWEEP_INTERVAL_MS = 60_000;
let nextSweepAt = 0;

/** Deletes up to `limit` expired records of any account, the oldest first; returns how many. */
export async function deleteExpiredIdempotencyRecords(sql: SqlPool, limit: number): Promise<number> {
  // SKIP LOCKED: a record a request is taking over right now is its business, not the sweep's.
  const { rowCount } = await sql.query(
    `DELETE FROM "idempotency_record" WHERE ("userId", "key") IN (
      SELECT "userId", "key" FROM "idempotency_record" WHERE "expiresAt" <= $1
      ORDER BY "expiresAt" LIMIT $2 FOR UPDATE SKIP LOCKED)`,
    [new Date(), limit],
  );
  return rowCount ?? 0;
}

/**
 * Deletes the expired records of every account, at most once a minute per process: called after
 * each idempotent request, so the table never holds much more than a day of keys, on any host.
 */
export async function sweepExpiredIdempotencyRecords(sql: SqlPool): Promise<void> {
  if (Date.now() < nextSweepAt) return;
  nextSweepAt = Date.now() + SWEEP_INTERVAL_MS;
  let deleted = 0;
  for (let batch = 0; batch < SWEEP_MAX_BATCHES; batch++) {
    const count = await deleteExpiredIdempotencyRecords(sql, SWEEP_BATCH);
    deleted += count;
    if (count < SWEEP_BATCH) break;
  }
  if (deleted > 0) log.info({ deleted }, "expired idempotency records swept");
}
