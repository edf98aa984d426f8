import { beforeAll, describe, expect, it } from "vitest";
import { call, createTestAccount, createTestKey, db, type TestAccount } from "../support/api";
import { expectError, expectSuccess, rateLimitHeaders } from "./expect";
import { generateApiKey } from "~/server/keys/api-key";
import { deactivateApiKey } from "~/server/keys/deactivate-api-key";

let account: TestAccount;

beforeAll(async () => {
  account = await createTestAccount("pro");
});

describe("missing key (401 MISSING_API_KEY)", () => {
  it.each([
    ["no key at all", {}],
    ["an empty x-api-key", { headers: { "x-api-key": "" } }],
    ["an Authorization header of another scheme", { headers: { authorization: "Basic dXNlcjpwYXNz" } }],
    ["an empty Bearer token", { headers: { authorization: "Bearer " } }],
  ])("%s", async (_, options) => {
    const response = await call("/blogs", options);
    const error = expectError(response, 401, "MISSING_API_KEY");
    expect(error.message).toBe("API key is required");
    // 401s carry the state of the client's unauthenticated bucket (100 an hour).
    expect(rateLimitHeaders(response).limit).toBe(100);
  });

  it("the empty query parameter counts as no key too", async () => {
    expectError(await call("/blogs?api_key="), 401, "MISSING_API_KEY");
  });
});

describe("invalid key (401 INVALID_API_KEY)", () => {
  it("rejects an unknown key of the right shape and a malformed one alike", async () => {
    expectError(await call("/blogs", { key: generateApiKey().key }), 401, "INVALID_API_KEY");
    expectError(await call("/blogs", { key: "not-a-key" }), 401, "INVALID_API_KEY");
  });

  it("rejects an expired key, saying so", async () => {
    const key = await createTestKey(account.id, { expiresAt: "2020-01-01T00:00:00Z" });
    const error = expectError(await call("/blogs", { key }), 401, "INVALID_API_KEY");
    expect(error.message).toMatch(/expired/);
  });

  it("rejects a deactivated key on the very next request", async () => {
    const key = await createTestKey(account.id, { name: "to deactivate" });
    expectSuccess(await call("/blogs", { key }));
    const { id } = await db().apiKey.findFirstOrThrow({ where: { userId: account.id, name: "to deactivate" } });
    await deactivateApiKey(db(), { id });
    const error = expectError(await call("/blogs", { key }), 401, "INVALID_API_KEY");
    expect(error.message).toMatch(/deactivated/);
  });

  it("does not consume the account's budget", async () => {
    const before = rateLimitHeaders(await call("/blogs", { key: account.key }));
    await call("/blogs", { key: generateApiKey().key });
    const after = rateLimitHeaders(await call("/blogs", { key: account.key }));
    expect(after.remaining).toBe(before.remaining - 1);
  });
});

describe("key transports (README, The API)", () => {
  it.each(["x-api-key", "bearer", "query"] as const)("accepts the key via %s", async (via) => {
    expectSuccess(await call("/blogs", { key: account.key, via }));
  });

  it("x-api-key wins over Authorization: Bearer", async () => {
    const bad = generateApiKey().key;
    expectSuccess(await call("/blogs", { headers: { "x-api-key": account.key, authorization: `Bearer ${bad}` } }));
    expectError(await call("/blogs", { headers: { "x-api-key": bad, authorization: `Bearer ${account.key}` } }), 401, "INVALID_API_KEY");
  });

  it("Authorization: Bearer wins over ?api_key=", async () => {
    const bad = generateApiKey().key;
    expectSuccess(await call(`/blogs?api_key=${bad}`, { headers: { authorization: `Bearer ${account.key}` } }));
    expectError(await call(`/blogs?api_key=${account.key}`, { headers: { authorization: `Bearer ${bad}` } }), 401, "INVALID_API_KEY");
  });

  it("falls through an empty x-api-key and another scheme to the query parameter", async () => {
    expectSuccess(await call(`/blogs?api_key=${account.key}`, { headers: { "x-api-key": "", authorization: "Basic abc" } }));
  });
});

describe("permissions (403 INSUFFICIENT_PERMISSIONS)", () => {
  it("names the missing permission and reports the budget without consuming it", async () => {
    const key = await createTestKey(account.id, { permissions: ["write:blogs", "read:analytics"] });
    const first = await call("/blogs", { key });
    const error = expectError(first, 403, "INSUFFICIENT_PERMISSIONS");
    expect(error.message).toBe("This API key lacks the read:blogs permission");
    const second = await call("/blogs", { key });
    expect(rateLimitHeaders(first).limit).toBe(1000);
    expect(rateLimitHeaders(second).remaining).toBe(rateLimitHeaders(first).remaining);
  });
});

describe("last used", () => {
  it("is recorded after a key authenticates a request", async () => {
    const key = await createTestKey(account.id, { name: "last-used probe" });
    const row = () => db().apiKey.findFirstOrThrow({ where: { userId: account.id, name: "last-used probe" } });
    expect((await row()).lastUsedAt).toBeNull();
    const before = Date.now();
    expectSuccess(await call("/blogs", { key }));
    await expect.poll(async () => (await row()).lastUsedAt?.getTime() ?? 0, { timeout: 5000 }).toBeGreaterThanOrEqual(before - 1000);
  });
});
