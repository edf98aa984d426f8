// GET /api/v1/audit-log (docs/api.md, Audit log) and the dashboard's CSV: read:audit, newest
// first, cursor pages, filters action, actor, from and to, and 400 INVALID_PARAMETER on bad values.
import { parse } from "csv-parse/sync";
import { beforeAll, describe, expect, it } from "vitest";
import { call, createTestAccount, createTestKey, db, type TestAccount } from "../support/api";
import { signIn, trpc } from "../support/dashboard";

let account: TestAccount;
let keyId: string;
const blogIds: string[] = [];

const post = (path: string, body: unknown) =>
  call(path, { key: account.key, method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

beforeAll(async () => {
  account = await createTestAccount();
  keyId = (await db().apiKey.findFirstOrThrow({ where: { userId: account.id }, select: { id: true } })).id;
  for (const title of ["One", "Two", "Three"]) blogIds.push((await post("/blogs", { title })).json.data.blog.id);
  expect((await post("/subscribers", { email: `audit-${Date.now()}@example.test` })).status).toBe(201);
});

describe("GET /audit-log", () => {
  it("lists the publication's entries newest first, in the documented shape", async () => {
    const answer = await call("/audit-log", { key: account.key });
    expect(answer.status).toBe(200);
    const { entries, pagination } = answer.json.data;
    expect(entries[0]).toMatchObject({
      action: "subscriber.created",
      actor: { kind: "api_key", id: keyId, name: "test key" },
      target: { type: "subscriber" },
      requestId: expect.any(String),
      changedFields: expect.arrayContaining(["email", "status"]),
    });
    expect(entries[0].at).toMatch(/^\d{4}-\d{2}-\d{2}T.*Z$/);
    const ids = entries.map((e: { id: string }) => BigInt(e.id));
    expect([...ids].sort((a, b) => (a > b ? -1 : 1))).toEqual(ids);
    expect(pagination).toEqual({ limit: 50, hasNext: false, nextCursor: null });
  });

  it("pages by cursor, each entry once", async () => {
    const all = (await call("/audit-log?limit=100", { key: account.key })).json.data.entries.map((e: { id: string }) => e.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { status: number; json: any } = await call(`/audit-log?limit=2${cursor ? `&cursor=${cursor}` : ""}`, { key: account.key });
      expect(page.status).toBe(200);
      expect(page.json.data.entries.length).toBeLessThanOrEqual(2);
      seen.push(...page.json.data.entries.map((e: { id: string }) => e.id));
      cursor = page.json.data.pagination.nextCursor;
      expect(page.json.data.pagination.hasNext).toBe(cursor !== null);
    } while (cursor);
    expect(seen).toEqual(all);
    expect(all.length).toBeGreaterThanOrEqual(6);
  });

  it("filters by action (one, or every action on a type), by actor (kind or id) and by time", async () => {
    const actions = async (query: string) => {
      const answer = await call(`/audit-log?${query}`, { key: account.key });
      expect(answer.status, JSON.stringify(answer.json)).toBe(200);
      return answer.json.data.entries.map((e: { action: string; target: { id: string } }) => `${e.action} ${e.target.id}`);
    };
    expect(await actions("action=blog.created")).toEqual([...blogIds].reverse().map((id) => `blog.created ${id}`));
    expect(await actions("action=subscriber")).toHaveLength(1);
    expect(await actions("action=blog.deleted")).toEqual([]);
    expect(await actions(`actor=${keyId}`)).toHaveLength(4);
    expect(await actions("actor=api_key")).toHaveLength(4);
    // The account and its key were made in the test process, as the database.
    expect((await actions("actor=database")).length).toBeGreaterThanOrEqual(1);
    const today = new Date().toISOString().slice(0, 10);
    expect(await actions(`action=blog.created&from=${today}&to=${today}`)).toHaveLength(3);
    expect(await actions("action=blog.created&to=2020-01-01")).toEqual([]);
    expect(await actions(`action=blog.created&from=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).toEqual([]);
  });

  it("answers 400 INVALID_PARAMETER naming a bad value", async () => {
    for (const [query, field] of [
      ["action=Blog Updated", "action"],
      ["action=a.b.c", "action"],
      ["actor=" + "x".repeat(201), "actor"],
      ["from=2026-02-30", "from"],
      ["to=yesterday", "to"],
      ["from=2026-11-02&to=2026-11-01", "from"],
      ["limit=0", "limit"],
      ["limit=101", "limit"],
      ["cursor=abc", "cursor"],
      ["cursor=-1", "cursor"],
    ] as const) {
      const answer = await call(`/audit-log?${query}`, { key: account.key });
      expect(answer.status, query).toBe(400);
      expect(answer.json.error).toMatchObject({ code: "INVALID_PARAMETER", message: `Invalid parameter: ${field}` });
    }
  });

  it("needs read:audit, and shows only the caller's publication", async () => {
    const without = await createTestKey(account.id, { permissions: ["read:blogs", "write:blogs"] });
    const refused = await call("/audit-log", { key: without });
    expect(refused.status).toBe(403);
    expect(refused.json.error?.code).toBe("INSUFFICIENT_PERMISSIONS");
    const other = await createTestAccount();
    const theirs = await call("/audit-log?limit=100", { key: other.key });
    expect(theirs.status).toBe(200);
    const targets = theirs.json.data.entries.map((e: { target: { id: string } }) => e.target.id);
    for (const id of blogIds) expect(targets).not.toContain(id);
  });
});

describe("the dashboard's CSV", () => {
  it("holds the filtered entries, newest first, with a header", async () => {
    const cookie = await signIn(account);
    const answer = await trpc(cookie, "audit.export", { action: "blog.created" });
    expect(answer.status).toBe(200);
    const { csv, rows, truncated } = answer.body.result.data;
    const records: Record<string, string>[] = parse(csv, { columns: true });
    expect(Object.keys(records[0]!)).toEqual([
      "id", "at", "actor_kind", "actor_id", "actor_name", "action", "target_type", "target_id", "ip", "user_agent", "request_id", "changed_fields",
    ]);
    expect(records.map((r) => r.target_id)).toEqual([...blogIds].reverse());
    expect(records[0]).toMatchObject({ actor_kind: "api_key", actor_id: keyId, action: "blog.created" });
    expect(records[0]!.changed_fields!.split(" ")).toContain("title");
    expect({ rows, truncated }).toEqual({ rows: 3, truncated: false });
    const none = await trpc(cookie, "audit.export", { action: "import.deleted" });
    expect(none.body.result.data.csv.trim().split("\n")).toHaveLength(1);
    const bad = await trpc(cookie, "audit.export", { from: "not a day" });
    expect(bad.status).toBe(400);
  });
});
