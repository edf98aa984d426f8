// The migrations folder is the schema's history: it must reproduce schema.prisma exactly, and
// applying it must behave like `prisma migrate deploy` (same bookkeeping in _prisma_migrations).
import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createScratchDatabase, query, type ScratchDatabase } from "../../scripts/lib/scratch-database";
import { applyMigrations, diffMigrationsToSchema, MIGRATIONS_DIR, SCHEMA_PATH } from "~/server/db/migrate";

describe("prisma/migrations and schema.prisma", () => {
  it("agree: replaying the migrations gives schema.prisma", async () => {
    expect(await diffMigrationsToSchema()).toBe("");
  });

  it("would be caught drifting apart", async () => {
    const schema = await readFile(SCHEMA_PATH, "utf8");
    const drifted = schema.replace("model Blog {", "model Blog {\n  subtitles String[]");
    expect(drifted).not.toBe(schema);
    expect(await diffMigrationsToSchema(drifted)).toMatch(/ALTER TABLE "blog" ADD COLUMN\s+"subtitles" TEXT\[\]/);
  });
});

describe("applyMigrations on a fresh database", () => {
  let database: ScratchDatabase;
  let migrationNames: string[];

  beforeAll(async () => {
    database = await createScratchDatabase(process.env.DATABASE_URL, "blogmgr_mig");
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


describe("the second_factors_of_unverified_accounts migration", () => {
  let database: ScratchDatabase;

  beforeAll(async () => {
    database = await createScratchDatabase(process.env.DATABASE_URL, "blogmgr_sf");
    await applyMigrations(database.url);
  });
  afterAll(() => database?.drop());

  it("removes the passkeys and two-factor sign-in of accounts whose address was never confirmed, and no one else's", async () => {
    const folder = (await readdir(MIGRATIONS_DIR)).find((name) => name.endsWith("_second_factors_of_unverified_accounts"));
    expect(folder).toBeDefined();
    await query(
      database.url,
      `INSERT INTO "user" (id, name, email, "emailVerified", handle, "twoFactorEnabled", "updatedAt") VALUES
         ('squatter', 'Squatter', 'squatter@example.test', false, 'squatter', true, now()),
         ('owner', 'Owner', 'owner@example.test', true, 'owner', true, now());
       INSERT INTO "passkey" (id, "publicKey", "userId", "credentialID", counter, "deviceType", "backedUp") VALUES
         ('squatters-key', 'k', 'squatter', 'c1', 0, 'singleDevice', false),
         ('owners-key', 'k', 'owner', 'c2', 0, 'singleDevice', false);
       INSERT INTO "twoFactor" (id, secret, "backupCodes", "userId") VALUES ('squatters-app', 's', 'b', 'squatter'), ('owners-app', 's', 'b', 'owner');`,
    );
    await query(database.url, await readFile(join(MIGRATIONS_DIR, folder!, "migration.sql"), "utf8"));
    expect(await query(database.url, `SELECT id FROM "passkey"`)).toEqual([{ id: "owners-key" }]);
    expect(await query(database.url, `SELECT id FROM "twoFactor"`)).toEqual([{ id: "owners-app" }]);
    expect(await query(database.url, `SELECT id, "twoFactorEnabled" FROM "user" ORDER BY id`)).toEqual([
      { id: "owner", twoFactorEnabled: true },
      { id: "squatter", twoFactorEnabled: false },
    ]);
  });
});
