import { beforeAll, describe, expect, it } from "vitest";
import { call, createTestAccount, createTestKey, db, type TestAccount } from "../support/api";
import { signIn, trpc } from "../support/dashboard";
import { QUOTAS } from "~/server/quotas/quotas";
import { REQUEST_LOG_PER_ACCOUNT } from "~/server/usage/usage-batch";

/**
 * A key's life in the dashboard over real HTTP: rolled (both keys work during the grace, the old
 * one is refused as rolled after it), renamed, flagged when expiring or old, and its activity.
 */

let ann: TestAccount;
let bob: TestAccount;
let annCookie: string;
let bobCookie: string;

beforeAll(async () => {
  [ann, bob] = await Promise.all([createTestAccount(), createTestAccount()]);
  [annCookie, bobCookie] = [await signIn(ann), await signIn(bob)];
});

const keysOf = async (cookie: string): Promise<any[]> => (await trpc(cookie, "keys.list")).body.result.data;
const keyIdOf = async (accountId: string, name: string) => (await db().apiKey.findFirstOrThrow({ where: { userId: accountId, name } })).id;

describe("rolling a key", () => {
  it("gives a new key with the same name, description, permissions and lifetime; both work until the grace ends", async () => {
    await createTestKey(ann.id, { name: "deploy", description: "CI deploys", permissions: ["read:blogs"], expires: "30d" });
    const oldId = await keyIdOf(ann.id, "deploy");
    const oldKey = await db().apiKey.findUniqueOrThrow({ where: { id: oldId } });

    const rolled = await trpc(annCookie, "keys.roll", { id: oldId, grace: "1h" });
    expect(rolled.status).toBe(200);
    const result = rolled.body.result.data;
    expect(result).toMatchObject({ rolledKeyId: oldId, permissions: ["read:blogs"], key: expect.stringMatching(/^bm_[a-z0-9]{64}$/) });
    const lifetime = oldKey.expiresAt!.getTime() - oldKey.createdAt.getTime();
    const fresh = await db().apiKey.findUniqueOrThrow({ where: { id: result.id } });
    expect(fresh).toMatchObject({ name: "deploy", description: "CI deploys", permissions: ["read:blogs"] });
    expect(fresh.expiresAt!.getTime() - fresh.createdAt.getTime()).toBe(lifetime);
    expect(Date.parse(result.graceEndsAt) - fresh.createdAt.getTime()).toBe(3_600_000);

    const listed = await keysOf(annCookie);
    expect(listed.find((k) => k.id === oldId)).toMatchObject({ status: "active", graceEndsAt: result.graceEndsAt, rotationDue: false });
    expect(listed.find((k) => k.id === result.id)).toMatchObject({ status: "active", graceEndsAt: null });
  });

  it("keeps the old key working during the grace and refuses it as rolled after, over the API", async () => {
    const oldKey = await createTestKey(ann.id, { name: "worker", permissions: ["read:blogs"] });
    const oldId = await keyIdOf(ann.id, "worker");
    const { key: newKey } = (await trpc(annCookie, "keys.roll", { id: oldId, grace: "24h" })).body.result.data;
    expect((await call("/blogs", { key: oldKey })).status).toBe(200);
    expect((await call("/blogs", { key: newKey })).status).toBe(200);

    const ended = await trpc(annCookie, "keys.endGrace", { id: oldId });
    expect(ended.status).toBe(200);
    const refused = await call("/blogs", { key: oldKey });
    expect(refused.status).toBe(401);
    expect(refused.json.error).toMatchObject({ code: "INVALID_API_KEY", message: expect.stringContaining("rolled") });
    expect((await call("/blogs", { key: newKey })).status).toBe(200);
    expect((await keysOf(annCookie)).find((k) => k.id === oldId)).toMatchObject({ status: "rolled" });
    // Ending it again changes nothing.
    expect((await trpc(annCookie, "keys.endGrace", { id: oldId })).body.result.data.graceEndsAt).toBe(ended.body.result.data.graceEndsAt);
  });

  it("with no grace, stops the old key at once", async () => {
    const oldKey = await createTestKey(ann.id, { name: "instant" });
    const { key: newKey } = (await trpc(annCookie, "keys.roll", { id: await keyIdOf(ann.id, "instant"), grace: "0" })).body.result.data;
    expect((await call("/blogs", { key: oldKey })).json.error?.code).toBe("INVALID_API_KEY");
    expect((await call("/blogs", { key: newKey })).status).toBe(200);
  });

  it("refuses to roll a key twice, a deactivated key, or a key that never was rolled to end its grace", async () => {
    await createTestKey(ann.id, { name: "twice" });
    const id = await keyIdOf(ann.id, "twice");
    expect((await trpc(annCookie, "keys.roll", { id })).status).toBe(200);
    const again = await trpc(annCookie, "keys.roll", { id });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toContain("already been rolled");

    await createTestKey(ann.id, { name: "dead" });
    const dead = await keyIdOf(ann.id, "dead");
    await trpc(annCookie, "keys.deactivate", { id: dead });
    expect((await trpc(annCookie, "keys.roll", { id: dead })).body.error.message).toContain("deactivated");
    expect((await trpc(annCookie, "keys.endGrace", { id: dead })).status).toBe(409);
    expect((await trpc(annCookie, "keys.roll", { id, grace: "2d" })).status).toBe(400);
  });

  it("works at the active-key quota: the rolled key leaves it as its replacement enters", async () => {
    const full = await createTestAccount();
    const cookie = await signIn(full);
    const room = QUOTAS.activeKeysPerAccount - 1;
    await db().apiKey.createMany({
      data: Array.from({ length: room }, (_, i) => ({ userId: full.id, name: `k${i}`, keyHash: `hash-${full.id}-${i}`, keyPrefix: "bm_xxxx", keySuffix: "xxxx", permissions: ["read:blogs"] })),
    });
    expect((await trpc(cookie, "keys.create", { name: "over", permissions: ["read:blogs"] })).status).toBe(409);
    const rolled = await trpc(cookie, "keys.roll", { id: await keyIdOf(full.id, "k0") });
    expect(rolled.status).toBe(200);
    expect((await trpc(cookie, "keys.create", { name: "over", permissions: ["read:blogs"] })).status).toBe(409);
  });

  it("is not possible on another account's key, nor is renaming it or reading its activity", async () => {
    await createTestKey(ann.id, { name: "private" });
    const id = await keyIdOf(ann.id, "private");
    for (const [procedure, input] of [
      ["keys.roll", { id }],
      ["keys.endGrace", { id }],
      ["keys.update", { id, name: "mine now" }],
      ["keys.activity", { id }],
    ] as const) {
      expect((await trpc(bobCookie, procedure, input)).status, procedure).toBe(404);
    }
    expect(await db().apiKey.count({ where: { userId: ann.id, name: "private", rolledAt: null } })).toBe(1);
  });
});

describe("editing a key", () => {
  it("renames it and changes its description, pointing at the field a refusal is about", async () => {
    await createTestKey(ann.id, { name: "before" });
    const id = await keyIdOf(ann.id, "before");
    const renamed = await trpc(annCookie, "keys.update", { id, name: "  after ", description: "now described" });
    expect(renamed.body.result.data).toEqual({ id, name: "after", description: "now described" });
    const empty = await trpc(annCookie, "keys.update", { id, name: " " });
    expect(empty.body.error.data).toMatchObject({ apiCode: "MISSING_REQUIRED_FIELD", field: "name" });
    const long = await trpc(annCookie, "keys.update", { id, description: "x".repeat(501) });
    expect(long.body.error.data).toMatchObject({ apiCode: "INVALID_PARAMETER", field: "description" });
    const created = await trpc(annCookie, "keys.create", { name: "", permissions: ["read:blogs"] });
    expect(created.body.error.data.field).toBe("name");
  });
});

describe("the list's flags", () => {
  it("flags active keys expiring within 7 days, and keys over 90 days old but not once rolled", async () => {
    const day = 24 * 60 * 60 * 1000;
    await createTestKey(ann.id, { name: "soon", expiresAt: new Date(Date.now() + 6 * day).toISOString() });
    await createTestKey(ann.id, { name: "later", expiresAt: new Date(Date.now() + 8 * day).toISOString() });
    await createTestKey(ann.id, { name: "ancient" });
    await db().apiKey.updateMany({ where: { userId: ann.id, name: "ancient" }, data: { createdAt: new Date(Date.now() - 91 * day) } });
    const byName = (keys: any[], name: string) => keys.find((k) => k.name === name);
    let keys = await keysOf(annCookie);
    expect(byName(keys, "soon")).toMatchObject({ expiringSoon: true });
    expect(byName(keys, "later")).toMatchObject({ expiringSoon: false });
    expect(byName(keys, "ancient")).toMatchObject({ rotationDue: true });
    await trpc(annCookie, "keys.roll", { id: byName(keys, "ancient").id });
    keys = await keysOf(annCookie);
    expect(keys.filter((k) => k.name === "ancient").map((k) => k.rotationDue)).toEqual([false, false]);
  });
});

describe("a key's activity", () => {
  const logged = (path: string, status: number, errorCode: string | null) => ({
    at: expect.any(String),
    method: "GET",
    path,
    query: null,
    status,
    errorCode,
    latencyMs: expect.any(Number),
  });

  it("has its usage per day by outcome and its latest requests from the log, with their request ids", async () => {
    const account = await createTestAccount();
    const cookie = await signIn(account);
    const id = (await keysOf(cookie))[0].id;
    const ok = await call("/blogs", { key: account.key });
    const missing = await call("/blogs/nope", { key: account.key });
    const activity = (await trpc(cookie, "keys.activity", { id })).body.result.data;
    expect(activity.usage.totals).toMatchObject({ requests: 2, succeeded: 1, clientErrors: 1 });
    expect(activity.recent).toEqual([
      { ...logged("/blogs/{blogId}", 404, "RESOURCE_NOT_FOUND"), requestId: missing.headers.get("x-request-id") },
      { ...logged("/blogs", 200, null), requestId: ok.headers.get("x-request-id") },
    ]);
  });

  it("shows a refused request's error code and its query string, the key in ?api_key= redacted", async () => {
    const account = await createTestAccount();
    const cookie = await signIn(account);
    const id = (await keysOf(cookie))[0].id;
    const refused = await call("/blogs?limit=500&q=caf%C3%A9", { key: account.key, via: "query" });
    expect(refused.status).toBe(400);
    const activity = (await trpc(cookie, "keys.activity", { id })).body.result.data;
    expect(activity.recent).toEqual([
      { ...logged("/blogs", 400, "INVALID_PARAMETER"), query: "limit=500&q=caf%C3%A9&api_key=REDACTED", requestId: refused.headers.get("x-request-id") },
    ]);
    expect(JSON.stringify(activity)).not.toContain(account.key);
    expect(await db().apiRequestLog.count({ where: { query: { contains: account.key } } })).toBe(0);
  });

  it("keeps at most the account's latest requests in the log", async () => {
    const account = await createTestAccount();
    const keyId = (await db().apiKey.findFirstOrThrow({ where: { userId: account.id } })).id;
    const at = new Date();
    await db().apiRequestLog.createMany({
      data: Array.from({ length: REQUEST_LOG_PER_ACCOUNT + 50 }, (_, i) => ({ userId: account.id, keyId, at, method: "GET", path: "/old", status: 200, latencyMs: i, requestId: `old-${i}` })),
    });
    const latest = await call("/blogs", { key: account.key });
    const cookie = await signIn(account);
    const recent = (await trpc(cookie, "keys.activity", { id: keyId })).body.result.data.recent;
    expect(recent[0].requestId).toBe(latest.headers.get("x-request-id"));
    expect(await db().apiRequestLog.count({ where: { userId: account.id } })).toBe(REQUEST_LOG_PER_ACCOUNT);
    expect(await db().apiRequestLog.count({ where: { userId: account.id, requestId: { in: ["old-0", "old-50"] } } })).toBe(0);
    expect(await db().apiRequestLog.count({ where: { userId: account.id, requestId: "old-51" } })).toBe(1);
  });
});
