import "server-only";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { env } from "~/env";
import { PrismaClient, type Prisma } from "~/generated/prisma/client";
import { auditWrites } from "~/server/db/audit-writes";
import { describeDatabase } from "~/server/db/reachable";
import { log } from "~/server/runtime/log";

export type Db = PrismaClient;

/**
 * The connection pool Prisma runs on, and the one channel of raw SQL: each statement lives next to
 * its entity (src/server/keys/key-sql.ts, src/server/blogs/list-blogs-sql.ts, the usage flush in
 * src/server/usage/usage-batch.ts) and is sent here directly, on the same connections, without
 * Prisma's per-query overhead. Statements inside a Prisma interactive transaction stay on it.
 */
export type SqlPool = Pick<pg.Pool, "query">;

interface Database {
  pool: pg.Pool;
  db: Db;
}

function createDatabase(): Database {
  if (!env.DATABASE_URL) {
    throw new Error("DATABASE_URL is not set: start the app with `npm run dev` or `npm start`, which provide one");
  }
  return openDatabase({ connectionString: env.DATABASE_URL, max: env.DATABASE_POOL_SIZE });
}

function openDatabase(config: pg.PoolConfig): Database {
  const pool = new pg.Pool(config);
  // An idle connection the server drops emits here; the pool replaces it on the next query.
  pool.on("error", (error) => log.warn({ cause: error.message }, "database connection lost"));
  // Each transaction written in names who writes, for the audit log (docs/audit-log.md).
  pool.on("connect", auditWrites);
  // $disconnect (the CLI, tests) ends the pool too, so nothing keeps the process alive.
  return { pool, db: new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) }) };
}

// One pool and one client per process, made at first use.
let primary: Database | undefined;
let replicas: Replica[] | undefined;

/** A read replica (DATABASE_REPLICA_URLS): its pool and client, reached through src/server/db/replicas.ts only. */
export interface Replica {
  /** As describeDatabase gives it, for the log: the URL may hold a password. */
  name: string;
  pool: SqlPool;
  db: Db;
}

/** One pool per replica, as small as the primary's; a replica out of reach fails fast, so readers fall back to the primary quickly. */
export function getReplicas(): Replica[] {
  replicas ??= (env.DATABASE_REPLICA_URLS ?? []).map((url) => ({
    name: describeDatabase(url),
    ...openDatabase({ connectionString: url, max: env.DATABASE_POOL_SIZE, connectionTimeoutMillis: 2_000, query_timeout: 10_000 }),
  }));
  return replicas;
}

function database(): Database {
  primary ??= createDatabase();
  return primary;
}

export function getDb(): Db {
  return database().db;
}

export function getSqlPool(): SqlPool {
  return database().pool;
}

/**
 * Where what needs a session of its own connects (LISTEN, graphile-worker, migrations): DIRECT_URL
 * when DATABASE_URL goes through a pooler in transaction mode (docs/deploying.md), else DATABASE_URL.
 */
export function sessionDatabaseUrl(): string | undefined {
  return env.DIRECT_URL ?? env.DATABASE_URL;
}

/**
 * Runs `work` in `db` when it is already a transaction (an Idempotency-Key's), else in a new one.
 * Told apart by `$connect`, which only the client has: a transaction's `$transaction` exists too,
 * but would start another transaction rather than join this one.
 */
export function inTransaction<T>(
  db: Db | Prisma.TransactionClient,
  work: (tx: Prisma.TransactionClient) => Promise<T>,
  options?: { maxWait?: number; timeout?: number },
): Promise<T> {
  return "$connect" in db ? db.$transaction(work, options) : work(db);
}
