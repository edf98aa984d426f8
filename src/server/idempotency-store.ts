import { DAY_MS } from "~/server/calendar-date";
import type { Db } from "~/server/db";

/** How long a first response is kept for retries. */
export const IDEMPOTENCY_TTL_MS = DAY_MS;
/** How long a retry waits for a first request that is still running. */
const IN_PROGRESS_WAIT_MS = 15_000;
const POLL_MS = 50;

export interface StoredResponse {
  status: number;
  body: unknown;
}

export type IdempotencyClaim =
  | { kind: "first" }
  | { kind: "replay"; response: StoredResponse }
  | { kind: "different-request" }
  | { kind: "still-running" };

/**
 * Claims `key` for a request whose content hashes to `requestHash`. The first claimant (an insert
 * that wins on the primary key, so simultaneous requests are settled by the database) runs the
 * request; a later one with the same hash gets the stored response, waiting for it if the first
 * is still running; a later one with another hash is told so. Expired records are dropped first.
 */
export async function claimIdempotencyKey(db: Db, accountId: string, key: string, requestHash: string): Promise<IdempotencyClaim> {
  const now = new Date();
  await db.idempotencyRecord.deleteMany({ where: { userId: accountId, expiresAt: { lte: now } } });
  const deadline = Date.now() + IN_PROGRESS_WAIT_MS;
  for (;;) {
    const { count } = await db.idempotencyRecord.createMany({
      data: [{ userId: accountId, key, requestHash, expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS) }],
      skipDuplicates: true,
    });
    if (count === 1) return { kind: "first" };
    const record = await db.idempotencyRecord.findUnique({ where: { userId_key: { userId: accountId, key } } });
    if (record) {
      if (record.requestHash !== requestHash) return { kind: "different-request" };
      if (record.status !== null) return { kind: "replay", response: { status: record.status, body: record.body } };
    }
    // Gone (the first request failed and released it) or still running: look again shortly.
    if (Date.now() > deadline) return { kind: "still-running" };
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

export async function completeIdempotencyKey(db: Db, accountId: string, key: string, response: StoredResponse): Promise<void> {
  await db.idempotencyRecord.update({
    where: { userId_key: { userId: accountId, key } },
    data: { status: response.status, body: response.body ?? undefined },
  });
}

/** Frees the key after a failure worth retrying (5xx), so the retry runs afresh. */
export async function releaseIdempotencyKey(db: Db, accountId: string, key: string): Promise<void> {
  await db.idempotencyRecord.deleteMany({ where: { userId: accountId, key } });
}
