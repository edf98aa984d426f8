import { randomBytes } from "node:crypto";
import pg from "pg";
import { startEmbeddedPostgres } from "../../src/server/db/embedded";

export interface ScratchDatabase {
  url: string;
  /** In-memory embedded PostgreSQL (one session for every connection), not a server's database. */
  embedded: boolean;
  drop(): Promise<void>;
}

/**
 * A database of its own for a test run: a new database on `serverUrl`'s server, dropped by
 * `drop()`; or, without a server, or when the server is embedded PGlite (which serves one
 * database whatever the name), an in-memory embedded PostgreSQL.
 */
export async function createScratchDatabase(serverUrl: string | undefined, prefix: string): Promise<ScratchDatabase> {
  if (!serverUrl || (await isPglite(serverUrl))) {
    const embedded = await startEmbeddedPostgres({ dataDir: "memory://" });
    return { url: embedded.url, embedded: true, drop: () => embedded.stop() };
  }
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  await query(serverUrl, `CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.href, embedded: false, drop: async () => void (await query(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)) };
}

async function isPglite(url: string): Promise<boolean> {
  const [row] = await query<{ version: string }>(url, "SELECT version()");
  return row?.version.includes("PGlite") ?? false;
}

/** Runs one statement on its own connection. */
export async function query<Row>(url: string, sql: string): Promise<Row[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as Row[];
  } finally {
    await client.end();
  }
}
