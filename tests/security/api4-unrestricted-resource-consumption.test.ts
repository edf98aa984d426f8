import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiBaseUrl, call, createTestAccount, createTestKey, db, seedBlogs, type TestAccount } from "../support/api";
import { signIn, trpc } from "../support/dashboard";
import { postWithoutFinishing, type RawAnswer } from "../support/http-client";

/**
 * OWASP API4:2023, Unrestricted Resource Consumption, on the dashboard's /api/trpc (and the blog
 * quota on POST /api/v1/blogs too): bodies, batches, changes per hour, keys and blogs per account,
 * numeric inputs, and what a failure tells the browser.
 */

const MiB = 1024 * 1024;

function expectPayloadTooLarge(answer: RawAnswer) {
  expect(answer.status).toBe(413);
  expect(answer.body.error.data.code).toBe("PAYLOAD_TOO_LARGE");
  expect(answer.body.error.data.details).toBe("This request to /api/trpc may carry at most 2 MiB");
}

describe("request bodies", () => {
  let cookie: string;
  beforeAll(async () => {
    cookie = await signIn(await createTestAccount());
  });

  it("a declared 3 MiB body is refused with 413 before it is read", async () => {
    expectPayloadTooLarge(await postWithoutFinishing("/api/trpc/blogs.create", { cookie }, 64 * 1024, 3 * MiB));
  });

  it("a chunked body is read no further than 2 MiB", async () => {
    expectPayloadTooLarge(await postWithoutFinishing("/api/trpc/blogs.create", { cookie }, 2.5 * MiB));
  });

  it("a body within the cap is served", async () => {
    const answer = await trpc(cookie, "blogs.create", { title: "Long", content: "x".repeat(500_000) });
    expect(answer.status).toBe(200);
  });
});

describe("batches", () => {
  let account: TestAccount;
  let cookie: string;
  beforeAll(async () => {
    account = await createTestAccount();
    cookie = await signIn(account);
  });

  it("of 100 calls are refused whole, before any call runs", async () => {
    const paths = Array.from({ length: 100 }, () => "keys.create").join(",");
    const input = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [i, { name: `k${i}`, permissions: ["read:blogs"] }]));
    const response = await fetch(new URL(`/api/trpc/${paths}?batch=1`, apiBaseUrl()), {
      method: "POST",
      headers: { "content-type": "application/json", origin: new URL(apiBaseUrl()).origin, cookie },
      body: JSON.stringify(input),
    });
    expect(response.status).toBe(400);
    const body: any = await response.json();
    expect(body.error.message).toBe("Batch call exceeds maximum size");
    expect(await db().apiKey.count({ where: { userId: account.id } })).toBe(1);
  });

  it("of 100 queries in one GET are refused", async () => {
    const paths = Array.from({ length: 100 }, () => "usage.rateLimit").join(",");
    const response = await fetch(new URL(`/api/trpc/${paths}?batch=1&input={}`, apiBaseUrl()), { headers: { cookie } });
    expect(response.status).toBe(400);
  });

  it("of 10 calls are served", async () => {
    const paths = Array.from({ length: 10 }, () => "usage.rateLimit").join(",");
    const response = await fetch(new URL(`/api/trpc/${paths}?batch=1&input={}`, apiBaseUrl()), { headers: { cookie } });
    expect(response.status).toBe(200);
    expect(await response.json()).toHaveLength(10);
  });
});

describe("changes per owner", () => {
  it("past 300 in the hour are refused with 429, when it resets, and reads still work", async () => {
    const cookie = await signIn(await createTestAccount());
    // Ten changes a request (unknown keys: 404 each, counted all the same).
    const paths = Array.from({ length: 10 }, () => "keys.deactivate").join(",");
    const input = JSON.stringify(Object.fromEntries(Array.from({ length: 10 }, (_, i) => [i, { id: "no-such-key" }])));
    const changeTen = () =>
      fetch(new URL(`/api/trpc/${paths}?batch=1`, apiBaseUrl()), {
        method: "POST",
        headers: { "content-type": "application/json", origin: new URL(apiBaseUrl()).origin, cookie },
        body: input,
      });
    for (let i = 0; i < 30; i++) {
      const response = await changeTen();
      expect((await response.json()).map((r: any) => r.error.data.httpStatus)).toEqual(Array(10).fill(404));
    }
    const refused = await trpc(cookie, "keys.deactivate", { id: "no-such-key" });
    expect(refused.status).toBe(429);
    expect(refused.body.error.data.code).toBe("TOO_MANY_REQUESTS");
    expect(refused.body.error.message).toBe("Too many changes");
    expect(refused.body.error.data.details).toMatch(/^At most 300 changes an hour can be made in the dashboard; the limit resets at \d{4}-\d\d-\d\dT\d\d:00:00\.000Z$/);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await trpc(cookie, "keys.list")).status).toBe(200);
  });
});

describe("quotas", () => {
  it("an account has at most 50 active keys; deactivated and expired ones do not count", async () => {
    const account = await createTestAccount();
    const cookie = await signIn(account);
    for (let i = 1; i < 50; i++) await createTestKey(account.id, { name: `key ${i}` });
    await createTestKey(account.id, { name: "expired", expiresAt: "2020-01-01T00:00:00Z" });
    const refused = await trpc(cookie, "keys.create", { name: "one more", permissions: ["read:blogs"] });
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toBe("API key quota reached");
    expect(refused.body.error.data.details).toBe(
      "An account may have at most 50 active API keys: deactivate keys it no longer uses to create more",
    );
    const keys: any[] = (await trpc(cookie, "keys.list")).body.result.data;
    const active = keys.find((k) => k.status === "active");
    expect((await trpc(cookie, "keys.deactivate", { id: active.id })).status).toBe(200);
    expect((await trpc(cookie, "keys.create", { name: "one more", permissions: ["read:blogs"] })).status).toBe(200);
  });

  it("a free account holds at most 1,000 blogs, counted exactly under racing creates from the dashboard and the API", async () => {
    const account = await createTestAccount("free");
    const cookie = await signIn(account);
    // 998 blogs, some hidden from the API: they count too.
    await seedBlogs(account.id, Array.from({ length: 998 }, (_, i) => ({ allowApiAccess: i % 10 !== 0 })));
    const creates = await Promise.all([
      ...[1, 2, 3].map((i) => trpc(cookie, "blogs.create", { title: `Dashboard ${i}` })),
      ...[1, 2, 3].map((i) =>
        call("/blogs", { key: account.key, method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ title: `API ${i}` }) }),
      ),
    ]);
    expect(creates.filter((answer) => answer.status === 200 || answer.status === 201)).toHaveLength(2);
    expect(creates.filter((answer) => answer.status === 409)).toHaveLength(4);
    expect(await db().blog.count({ where: { userId: account.id } })).toBe(1000);

    const overApi = await call("/blogs", { key: account.key, method: "POST", headers: { "content-type": "application/json" }, body: '{"title":"More"}' });
    expect(overApi.status).toBe(409);
    expect(overApi.json.error).toEqual({
      code: "RESOURCE_CONFLICT",
      message: "Blog quota reached",
      details: "The free plan allows 1,000 blogs per account and this account has 1,000: delete blogs or move to a larger plan to create more",
    });
    const overDashboard = await trpc(cookie, "blogs.create", { title: "More" });
    expect(overDashboard.status).toBe(409);
    expect(overDashboard.body.error.data.details).toBe(overApi.json.error!.details);
  });
});

describe("numeric inputs", () => {
  let cookie: string;
  beforeAll(async () => {
    cookie = await signIn(await createTestAccount());
  });

  it.each([
    [{ page: 1e12 }, "page", "page must be an integer greater than or equal to 1"],
    [{ page: 0 }, "page", "page must be an integer greater than or equal to 1"],
    [{ limit: 1e9 }, "limit", "limit must be an integer between 1 and 50"],
  ])("%j is a clear 400", async (input, field, details) => {
    const answer = await trpc(cookie, "blogs.list", input);
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toBe(`Invalid parameter: ${field}`);
    expect(answer.body.error.data.details).toBe(details);
  });
});

describe("a database failure", () => {
  const trigger = `forced_failure_${randomUUID().replaceAll("-", "")}`;
  let account: TestAccount;

  beforeAll(async () => {
    account = await createTestAccount();
    // Only this account's inserts fail, with a message that must not reach the browser.
    await db().$executeRawUnsafe(`
      CREATE FUNCTION "${trigger}"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW."userId" = '${account.id}' THEN RAISE EXCEPTION 'secret_internal_detail in relation blog'; END IF;
        RETURN NEW;
      END $$`);
    await db().$executeRawUnsafe(`CREATE TRIGGER "${trigger}" BEFORE INSERT ON "blog" FOR EACH ROW EXECUTE FUNCTION "${trigger}"()`);
  });

  afterAll(async () => {
    await db().$executeRawUnsafe(`DROP TRIGGER IF EXISTS "${trigger}" ON "blog"`);
    await db().$executeRawUnsafe(`DROP FUNCTION IF EXISTS "${trigger}"()`);
  });

  it("shows a generic message and the request id, nothing of the cause", async () => {
    const cookie = await signIn(account);
    const answer = await trpc(cookie, "blogs.create", { title: "Doomed" });
    expect(answer.status).toBe(500);
    expect(answer.body.error.message).toBe("Internal server error");
    const requestId = answer.headers.get("x-request-id");
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(answer.body.error.data.requestId).toBe(requestId);
    const text = JSON.stringify(answer.body);
    expect(text).not.toMatch(/secret_internal_detail|relation|prisma|INSERT|stack/i);
  });
});
