// The audit log is append-only in the database itself (docs/audit-log.md): no entry is changed or
// deleted, but by the 180-day purge (its own transaction setting, and only older entries) or with
// its publication; the daily job purges.
import { quickAddJob } from "graphile-worker";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { createTestAccount, db } from "../support/api";
import { purgeAuditLog } from "~/server/audit/retention";
import { entriesOf, eventually } from "./support";

async function withClient<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** An entry dated `daysAgo` days back, written as the triggers write (INSERT is the one thing allowed). */
async function entryAged(accountId: string, daysAgo: number, action = "blog.updated"): Promise<bigint> {
  const [row] = await db().$queryRaw<{ id: bigint }[]>`INSERT INTO "audit_log" ("userId", "at", "actorKind", "action", "targetType", "targetId", "changedFields")
    VALUES (${accountId}, now() - make_interval(days => ${daysAgo}), 'database', ${action}, 'blog', 'b', '{title}') RETURNING "id"`;
  return row!.id;
}

describe("the database refuses", () => {
  it("to change an entry, to delete one, to empty the table", async () => {
    const account = await createTestAccount();
    const id = await entryAged(account.id, 1);
    await expect(db().$executeRaw`UPDATE "audit_log" SET "action" = 'blog.deleted' WHERE "id" = ${id}`).rejects.toThrow(/append-only: UPDATE refused/);
    await expect(db().$executeRaw`DELETE FROM "audit_log" WHERE "id" = ${id}`).rejects.toThrow(/append-only: DELETE refused/);
    await expect(db().$executeRawUnsafe(`TRUNCATE "audit_log"`)).rejects.toThrow(/append-only: TRUNCATE refused/);
    // Not even an old entry, without the purge's setting; nor a young one with it.
    const old = await entryAged(account.id, 200);
    await expect(db().$executeRaw`DELETE FROM "audit_log" WHERE "id" = ${old}`).rejects.toThrow(/DELETE refused/);
    await expect(
      db().$transaction(async (tx) => {
        await tx.$executeRaw`SELECT set_config('blogmgr.audit_purge', 'on', true)`;
        await tx.$executeRaw`DELETE FROM "audit_log" WHERE "id" = ${id}`;
      }),
    ).rejects.toThrow(/DELETE refused/);
    expect((await entriesOf(account.id)).map((e) => e.id)).toEqual(expect.arrayContaining([id, old]));
  });
});

describe("retention", () => {
  it("the purge deletes entries older than 180 days, and only those", async () => {
    const account = await createTestAccount();
    const old = [await entryAged(account.id, 181), await entryAged(account.id, 400)];
    const young = await entryAged(account.id, 179);
    const purged = await withClient((client) => purgeAuditLog(client));
    expect(purged).toBeGreaterThanOrEqual(2);
    const left = (await entriesOf(account.id)).map((e) => e.id);
    expect(left).toContain(young);
    for (const id of old) expect(left).not.toContain(id);
  });

  it("the daily job does it on the running worker", async () => {
    const account = await createTestAccount();
    const old = await entryAged(account.id, 365);
    await quickAddJob({ connectionString: process.env.DATABASE_URL }, "audit_log_purge", {});
    await eventually(() => entriesOf(account.id), (rows) => !rows.some((row) => row.id === old));
  });

  it("a publication deleted takes its entries with it", async () => {
    const account = await createTestAccount();
    await entryAged(account.id, 3);
    expect((await entriesOf(account.id)).length).toBeGreaterThan(1);
    await db().organization.delete({ where: { id: account.id } });
    expect(await entriesOf(account.id)).toEqual([]);
  });
});
