// The migrations folder is the schema's history: it must reproduce schema.prisma exactly, and
// applying it must behave like `prisma migrate deploy` (same bookkeeping in _prisma_migrations).
import { createHash, randomBytes } from "node:crypto";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmbeddedPostgres } from "~/server/db/embedded";
import { applyMigrations, diffMigrationsToSchema, MIGRATIONS_DIR, SCHEMA_PATH } from "~/server/db/migrate";

describe("prisma/migrations and schema.prisma", () => {
  it("agree: replaying the migrations gives schema.prisma", async () => {
    expect(await diffMigrationsToSchema()).toBe("");
  });

  it("would be caught drifting apart", async () => {
    const schema = await readFile(SCHEMA_PATH, "utf8");
    const drifted = schema.replace("model Blog {", "model Blog {\n  tags String[]");
    expect(drifted).not.toBe(schema);
    expect(await diffMigrationsToSchema(drifted)).toMatch(/ALTER TABLE "blog" ADD COLUMN\s+"tags" TEXT\[\]/);
  });
});

describe("applyMigrations on a fresh database", () => {
  let database: { url: string; drop(): Promise<void> };
  let migrationNames: string[];

  beforeAll(async () => {
    database = await freshDatabase();
    const entries = await readdir(MIGRATIONS_DIR, { withFileTypes: true });
    migrationNames = entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort();
  });
  afterAll(() => database?.drop());

  it("applies every migration once, recording them as prisma migrate deploy does", async () => {
    expect(migrationNames.length).toBeGreaterThan(0);
    expect(await applyMigrations(database.url)).toEqual({ applied: migrationNames });

    const tables = await query<{ table_name: string }>(
      database.url,
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'",
    );
    expect(tables.map((row) => row.table_name)).toEqual(
      expect.arrayContaining(["_prisma_migrations", "user", "blog", "api_key", "usage_daily", "idempotency_record"]),
    );

    const columns = await query<{ column_name: string }>(
      database.url,
      "SELECT column_name FROM information_schema.columns WHERE table_name = '_prisma_migrations'",
    );
    expect(columns.map((row) => row.column_name).sort()).toEqual(
      ["applied_steps_count", "checksum", "finished_at", "id", "logs", "migration_name", "rolled_back_at", "started_at"],
    );

    const rows = await query<{
      migration_name: string;
      checksum: string;
      finished_at: Date | null;
      rolled_back_at: Date | null;
      logs: string | null;
      applied_steps_count: number;
    }>(database.url, "SELECT * FROM _prisma_migrations ORDER BY migration_name");
    const expected = await Promise.all(
      migrationNames.map(async (name) => ({
        migration_name: name,
        // Prisma's checksum: hex SHA-256 of migration.sql as it is on disk.
        checksum: createHash("sha256").update(await readFile(join(MIGRATIONS_DIR, name, "migration.sql"))).digest("hex"),
        finished_at: expect.any(Date),
        rolled_back_at: null,
        logs: null,
        applied_steps_count: 1,
      })),
    );
    expect(rows).toEqual(expected.map((row) => expect.objectContaining(row)));
  });

  it("applies nothing the second time", async () => {
    expect(await applyMigrations(database.url)).toEqual({ applied: [] });
  });
});

/**
 * A temporary database on DATABASE_URL's server, else (or when DATABASE_URL is itself embedded
 * PGlite, which serves one database whatever the name) an embedded PGlite in a temporary directory.
 */
async function freshDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl && !(await query<{ version: string }>(serverUrl, "SELECT version()"))[0]?.version.includes("PGlite")) {
    const name = `blogmgr_mig_${randomBytes(6).toString("hex")}`;
    await query(serverUrl, `CREATE DATABASE ${name}`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    return { url: url.href, drop: () => query(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).then(() => {}) };
  }
  const dir = await mkdtemp(join(tmpdir(), "blogmgr-mig-"));
  const embedded = await startEmbeddedPostgres({ dataDir: join(dir, "pglite") });
  return {
    url: embedded.url,
    drop: async () => {
      await embedded.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function query<Row>(url: string, sql: string): Promise<Row[]> {
  const client = new pg.Client(url);
  await client.connect();
  try {
    return (await client.query(sql)).rows as Row[];
  } finally {
    await client.end();
  }
}
