// The hot path's prepared statements (src/server/db/prepared-statement.ts): planned once per
// connection on PostgreSQL; sent unprepared where connections do not keep them (embedded
// PostgreSQL, one session for all connections), without one request failing.
import pg from "pg";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { startEmbeddedPostgres } from "~/server/db/embedded";
import { tempDirMaker } from "../support/temp-dir";

const STATEMENT = "SELECT $1::int + 1 AS n";
const freshDataDir = tempDirMaker("blogmgr-prepared-");
let pool: pg.Pool | undefined;

/** The module afresh: whether it still prepares is its state. */
async function freshModule() {
  vi.resetModules();
  return import("~/server/db/prepared-statement");
}

beforeEach(() => vi.unstubAllEnvs());
afterEach(async () => {
  await pool?.end();
  pool = undefined;
});

describe("queryPrepared", () => {
  it("on PostgreSQL, prepares a statement once per connection, under a name its text gives", async () => {
    const { queryPrepared } = await freshModule();
    pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 1 });
    for (const value of [1, 2, 3]) expect((await queryPrepared<{ n: number }>(pool, STATEMENT, [value])).rows).toEqual([{ n: value + 1 }]);
    const { rows } = await pool.query<{ name: string; statement: string }>("SELECT name, statement FROM pg_prepared_statements");
    expect(rows).toEqual([{ name: expect.stringMatching(/^blogmgr_[0-9a-f]{40}$/), statement: STATEMENT }]);
  });

  it("with DATABASE_PREPARED_STATEMENTS=0, prepares nothing", async () => {
    vi.stubEnv("DATABASE_PREPARED_STATEMENTS", "0");
    const { queryPrepared } = await freshModule();
    pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 1 });
    expect((await queryPrepared<{ n: number }>(pool, STATEMENT, [1])).rows).toEqual([{ n: 2 }]);
    expect((await pool.query("SELECT name FROM pg_prepared_statements")).rows).toEqual([]);
  });

  it("on embedded PostgreSQL, where connections share one session, answers every statement, unprepared", async () => {
    const { queryPrepared } = await freshModule();
    const embedded = await startEmbeddedPostgres({ dataDir: await freshDataDir() });
    try {
      pool = new pg.Pool({ connectionString: embedded.url, max: 4 });
      const values = Array.from({ length: 12 }, (_, i) => i);
      const first = await Promise.allSettled(values.map((value) => queryPrepared<{ n: number }>(pool!, STATEMENT, [value])));
      expect(first.map((answer) => (answer.status === "fulfilled" ? answer.value.rows[0]!.n : String(answer.reason)))).toEqual(values.map((v) => v + 1));
      const later = await Promise.all(values.map((value) => queryPrepared<{ n: number }>(pool!, STATEMENT, [value])));
      expect(later.map((answer) => answer.rows[0]!.n)).toEqual(values.map((v) => v + 1));
    } finally {
      await pool?.end();
      pool = undefined;
      await embedded.stop();
    }
  }, 60_000);
});
