import "server-only";
import { getDb, getReplicas, getSqlPool, type Db, type Replica, type SqlPool } from "~/server/db";
import { log } from "~/server/runtime/log";

/**
 * Reads on a read replica (docs/read-replicas.md): the first replica of DATABASE_REPLICA_URLS, in
 * their order, that is up and has replayed the primary's WAL up to a given position, else the
 * primary. A replica that fails (at its status or during the read) is skipped for DOWN_MS and the
 * read is made on the primary, so a replica never fails a reader. The first-healthy order keeps a
 * process's reads on one replica, whose replay only moves forward.
 */

/** A database to read from: a replica's or the primary's pool and client. */
export interface ReadSource {
  pool: SqlPool;
  db: Db;
}

export interface ReadResult<T> {
  value: T;
  /** The position the replica that answered had replayed; null when the primary answered. */
  replayed: bigint | null;
}

/** How long a replica that failed is skipped. */
const DOWN_MS = 10_000;
const downUntil = new Map<string, number>();

/** An LSN (`16/B374D848`) as a number, to compare. */
function parseLsn(text: string): bigint {
  const [high = "0", low = "0"] = text.split("/");
  return (BigInt(`0x${high}`) << 32n) | BigInt(`0x${low}`);
}

/** Whether any replica is configured: without one every read is the primary's and no position is needed. */
export const hasReplicas = (): boolean => getReplicas().length > 0;

/**
 * The primary's WAL position now. Taken after a commit (or after a read on the primary), it is at
 * or past that commit's record, so a replica that has replayed to it holds everything committed before.
 */
export async function primaryPosition(): Promise<bigint> {
  const { rows } = await getSqlPool().query<{ lsn: string }>("SELECT pg_current_wal_lsn()::text AS lsn");
  return parseLsn(rows[0]!.lsn);
}

/** The position the replica has replayed; null when it is no standby (promoted, so no longer a copy of the primary). */
async function replayedBy(replica: Replica): Promise<bigint | null> {
  const { rows } = await replica.pool.query<{ lsn: string | null }>("SELECT pg_last_wal_replay_lsn()::text AS lsn");
  return rows[0]?.lsn ? parseLsn(rows[0].lsn) : null;
}

function markDown(replica: Replica, error: unknown): void {
  downUntil.set(replica.name, Date.now() + DOWN_MS);
  log.warn({ replica: replica.name, cause: (error as Error).message }, "read replica failed; reading from the primary");
}

/** `read` on the first replica up that has replayed to `position`, else on the primary (also when that replica fails during the read). */
export async function readOnReplica<T>(position: bigint, read: (source: ReadSource) => Promise<T>): Promise<ReadResult<T>> {
  for (const replica of getReplicas()) {
    if ((downUntil.get(replica.name) ?? 0) > Date.now()) continue;
    let replayed: bigint | null;
    try {
      replayed = await replayedBy(replica);
    } catch (error) {
      markDown(replica, error);
      continue;
    }
    if (replayed === null || replayed < position) continue;
    try {
      return { value: await read(replica), replayed };
    } catch (error) {
      markDown(replica, error);
      break;
    }
  }
  return { value: await read({ pool: getSqlPool(), db: getDb() }), replayed: null };
}
