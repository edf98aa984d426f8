import { beforeAll, describe, expect, it } from "vitest";
import { startProductionServer } from "../../scripts/lib/next-server";
import { serverLogFile } from "../support/server-logs";
import { call, createTestAccount, createTestKey, db, seedBlogs, type TestAccount } from "../support/api";
import { signIn, trpc } from "../support/dashboard";
import { expectError, expectSuccess, rateLimitHeaders } from "./expect";

/** docs/api.md, conditional requests (ETag, If-None-Match, If-Match). */

let account: TestAccount;

beforeAll(async () => {
  account = await createTestAccount();
});

const get = (path: string, headers: Record<string, string> = {}, key = account.key) => call(path, { key, headers });
const write = (method: "PUT" | "PATCH" | "DELETE", id: string, body: unknown, ifMatch?: string) =>
  call(`/blogs/${id}`, {
    key: account.key,
    method,
    body: body === undefined ? undefined : JSON.stringify(body),
    headers: { "content-type": "application/json", ...(ifMatch ? { "if-match": ifMatch } : {}) },
  });
const seedBlog = async (accountId: string, seed: { title: string }) => (await seedBlogs(accountId, [seed]))[0]!;
const etagOf = (response: { headers: Headers }) => response.headers.get("etag")!;
const storedBlog = (id: string) => db().blog.findUnique({ where: { id } });

describe("ETags and conditional GETs", () => {
  it("gives every GET of a blog, a list page and analytics a strong ETag, not to be cached without revalidation", async () => {
    const id = await seedBlog(account.id, { title: "Tagged" });
    // Analytics of past days: today's count every request, this one included, so their tag moves on.
    for (const path of [`/blogs/${id}`, "/blogs?limit=5", "/analytics?from=2025-01-01&to=2025-01-31"]) {
      const response = await get(path);
      expectSuccess(response);
      expect(etagOf(response)).toMatch(/^"[A-Za-z0-9_-]+"$/);
      expect(response.headers.get("cache-control")).toBe("private, no-cache");
      // The same answer, the same tag.
      expect(etagOf(await get(path))).toBe(etagOf(response));
      expect((await get(path, { "if-none-match": etagOf(response) })).status).toBe(304);
    }
  });

  it("answers a matching If-None-Match with 304, no body, the ETag and rate-limit headers, without consuming the budget", async () => {
    const own = await createTestAccount("free");
    const id = await seedBlog(own.id, { title: "Unchanged" });
    const first = await get(`/blogs/${id}`, {}, own.key);
    const tag = etagOf(first);
    const before = rateLimitHeaders(first);

    for (const ifNoneMatch of [tag, `W/${tag}`, `"other", ${tag}`]) {
      const notModified = await get(`/blogs/${id}`, { "if-none-match": ifNoneMatch }, own.key);
      expect(notModified.status).toBe(304);
      expect(notModified.body).toBeNull();
      expect(etagOf(notModified)).toBe(tag);
      expect(rateLimitHeaders(notModified)).toEqual(before);
    }
    // A stale tag is an ordinary 200, which consumes one unit.
    const modified = await get(`/blogs/${id}`, { "if-none-match": '"stale"' }, own.key);
    expect(expectSuccess(modified).blog.id).toBe(id);
    expect(etagOf(modified)).toBe(tag);
    expect(rateLimitHeaders(modified).remaining).toBe(before.remaining - 1);

    const usage = expectSuccess(await get("/analytics", {}, own.key));
    // The analytics read itself is recorded after its answer.
    expect(usage.totals).toMatchObject({ requests: 5, succeeded: 2, notModified: 3, rateLimited: 0 });
  });

  it("earns nothing free with a wildcard: If-None-Match: * consumes a unit like any GET", async () => {
    const own = await createTestAccount("free");
    const id = await seedBlog(own.id, { title: "Wildcard" });
    const before = rateLimitHeaders(await get(`/blogs/${id}`, {}, own.key));
    for (const ifNoneMatch of ["*", ' * ', `"stale", *`]) {
      const answer = await get(`/blogs/${id}`, { "if-none-match": ifNoneMatch }, own.key);
      expect([200, 304]).toContain(answer.status);
    }
    expect(rateLimitHeaders(await get(`/blogs/${id}`, {}, own.key)).remaining).toBe(before.remaining - 4);
  });

  it("answers a spent budget with 429 before any database work, conditional or not", async () => {
    const own = await createTestAccount("free");
    const id = await seedBlog(own.id, { title: "Spent" });
    // A server of its own, counting budgets in process: the shared one's connections may all be
    // taken meanwhile by other files' requests waiting on the lock below, and a Redis slowed by the
    // other files past 500 ms makes the limiter fail open (README, Security), by design; neither
    // says anything of the order this test checks.
    const server = await startProductionServer({ ...process.env, REDIS_URL: undefined, WEBHOOK_WORKER: "0" }, { logFile: serverLogFile() });
    const onOwnServer = (path: string, headers: Record<string, string> = {}) => call(path, { key: own.key, headers, baseUrl: server.baseUrl });
    const tag = etagOf(await onOwnServer(`/blogs/${id}`));
    await Promise.all(Array.from({ length: 99 }, () => onOwnServer("/blogs")));
    // The blog table is locked meanwhile: a request that reads it waits; one refused first does not.
    await db().$transaction(
      async (tx) => {
        await tx.$executeRawUnsafe('LOCK TABLE "blog" IN ACCESS EXCLUSIVE MODE');
        for (const headers of [{} as Record<string, string>, { "if-none-match": tag }, { "if-none-match": '"stale"' }, { "if-none-match": "*" }]) {
          const answer = await Promise.race([
            onOwnServer(`/blogs/${id}`, headers),
            new Promise<null>((resolve) => setTimeout(() => resolve(null), 5000)),
          ]);
          expect(answer, `GET with ${JSON.stringify(headers)} waited on the database`).not.toBeNull();
          expectError(answer!, 429, "RATE_LIMIT_EXCEEDED");
          expect(rateLimitHeaders(answer!).remaining).toBe(0);
          expect(Number(answer!.headers.get("retry-after"))).toBeGreaterThan(0);
          expect(answer!.headers.get("etag")).toBeNull();
        }
      },
      { timeout: 30000 },
    ).finally(() => server.stop());
  }, 60_000);

  it("checks the key and the permission before answering 304", async () => {
    const id = await seedBlog(account.id, { title: "Guarded" });
    const tag = etagOf(await get(`/blogs/${id}`));
    expectError(await get(`/blogs/${id}`, { "if-none-match": tag }, "not-a-key"), 401, "INVALID_API_KEY");
    const writer = await createTestKey(account.id, { name: "writer", permissions: ["write:blogs"] });
    expectError(await get(`/blogs/${id}`, { "if-none-match": tag }, writer), 403, "INSUFFICIENT_PERMISSIONS");
  });

  it("changes a list page's ETag when a listed blog changes or the total does", async () => {
    const own = await createTestAccount();
    const [, newer] = await seedBlogs(own.id, [{ title: "Older" }, { title: "Newer" }]);
    const page = () => get("/blogs?limit=1", {}, own.key);
    const first = await page();
    expect(expectSuccess(first).blogs.map((b: { id: string }) => b.id)).toEqual([newer]);

    // A blog off the page (older than both) changes only the total.
    await seedBlogs(own.id, [{ title: "Oldest", createdAt: new Date(Date.UTC(2020, 0, 1)) }]);
    const grown = await page();
    expect(expectSuccess(grown).blogs.map((b: { id: string }) => b.id)).toEqual([newer]);
    expect(etagOf(grown)).not.toBe(etagOf(first));
    expect((await get("/blogs?limit=1", { "if-none-match": etagOf(first) }, own.key)).status).toBe(200);

    // The listed blog changes.
    expectSuccess(await call(`/blogs/${newer}`, { key: own.key, method: "PATCH", body: JSON.stringify({ title: "Renamed" }), headers: { "content-type": "application/json" } }));
    const changed = await page();
    expect(etagOf(changed)).not.toBe(etagOf(grown));
    expect((await get("/blogs?limit=1", { "if-none-match": etagOf(changed) }, own.key)).status).toBe(304);
  });
});

describe("If-Match on writes", () => {
  it("writes when the ETag is the current one: the one GET answers with", async () => {
    const id = await seedBlog(account.id, { title: "Current" });
    const tag = etagOf(await get(`/blogs/${id}`));
    const updated = expectSuccess(await write("PUT", id, { title: "Put" }, tag)).blog;
    expect(updated.title).toBe("Put");
    const patched = expectSuccess(await write("PATCH", id, { title: "Patched" }, etagOf(await get(`/blogs/${id}`)))).blog;
    expect(patched.title).toBe("Patched");
    expectSuccess(await write("DELETE", id, undefined, etagOf(await get(`/blogs/${id}`))));
    expect(await storedBlog(id)).toBeNull();
  });

  it.each(["PUT", "PATCH", "DELETE"] as const)("refuses %s with a stale ETag: 412, and nothing changes", async (method) => {
    const id = await seedBlog(account.id, { title: "Before" });
    const stale = etagOf(await get(`/blogs/${id}`));
    expectSuccess(await write("PATCH", id, { description: "someone else's change" }));
    const before = await storedBlog(id);
    const error = expectError(await write(method, id, method === "DELETE" ? undefined : { title: "Mine" }, stale), 412, "PRECONDITION_FAILED");
    expect(error.message).toBe("Precondition failed");
    expect(await storedBlog(id)).toEqual(before);
  });

  it("lets exactly one of racing writers with the same ETag through", async () => {
    const id = await seedBlog(account.id, { title: "Raced" });
    const tag = etagOf(await get(`/blogs/${id}`));
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => write("PATCH", id, { title: `Writer ${i}` }, tag)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 412, 412, 412, 412, 412]);
    const winner = answers.find((a) => a.status === 200)!;
    expect((await storedBlog(id))!.title).toBe(expectSuccess(winner).blog.title);
  });

  it("writes unconditionally without If-Match, as before", async () => {
    const id = await seedBlog(account.id, { title: "Free" });
    const written = await write("PATCH", id, { title: "One" });
    expectSuccess(written);
    // Only GET answers carry an ETag; the rest stay uncached.
    expect(written.headers.get("etag")).toBeNull();
    expect(written.headers.get("cache-control")).toBe("no-store");
    expectSuccess(await write("PUT", id, { title: "Two" }));
    expect((await storedBlog(id))!.title).toBe("Two");
  });

  it("answers a missing blog with 404, whatever If-Match says", async () => {
    expectError(await write("PATCH", "blog-missing", { title: "x" }, '"any"'), 404, "RESOURCE_NOT_FOUND");
  });
});

describe("an update of read-only fields only", () => {
  it.each([
    ["id", "other"],
    ["createdAt", "2020-01-01T00:00:00.000Z"],
  ])("names the changed read-only %s rather than answering Nothing to update", async (field, value) => {
    const id = await seedBlog(account.id, { title: "Read-only" });
    for (const method of ["PUT", "PATCH"] as const) {
      const error = expectError(await write(method, id, { [field]: value }), 400, "INVALID_PARAMETER");
      expect(error.message).toBe(`Invalid parameter: ${field}`);
      expect(error.details).toContain(field);
    }
  });

  it("still answers Nothing to update when the read-only fields sent are unchanged", async () => {
    const id = await seedBlog(account.id, { title: "Same" });
    const blog = expectSuccess(await get(`/blogs/${id}`)).blog;
    expect(expectError(await write("PATCH", id, { id: blog.id, createdAt: blog.createdAt }), 400, "INVALID_PARAMETER").message).toBe("Nothing to update");
  });
});

describe("If-Match from the dashboard (/api/trpc)", () => {
  const trpcBlog = (answer: { body: any }) => answer.body.result.data.data.blog;

  it("tags a single call's answer with the ETag /api/v1 gives the same blog, and the update's with the new one", async () => {
    const id = await seedBlog(account.id, { title: "Tagged" });
    const cookie = await signIn(account);
    const loaded = await trpc(cookie, "blogs.get", { blogId: id });
    expect(etagOf(loaded)).toBe(etagOf(await get(`/blogs/${id}`)));

    const saved = await trpc(cookie, "blogs.update", { blogId: id, title: "Retitled" }, { headers: { "if-match": etagOf(loaded) } });
    expect(trpcBlog(saved).title).toBe("Retitled");
    expect(etagOf(saved)).toBe(etagOf(await get(`/blogs/${id}`)));
  });

  it("refuses an update or a delete based on a stale ETag with PRECONDITION_FAILED, and nothing changes", async () => {
    const id = await seedBlog(account.id, { title: "Theirs" });
    const cookie = await signIn(account);
    const stale = etagOf(await trpc(cookie, "blogs.get", { blogId: id }));
    expectSuccess(await write("PATCH", id, { description: "changed over the API meanwhile" }));
    const before = await storedBlog(id);

    const refused = await trpc(cookie, "blogs.update", { blogId: id, title: "Mine" }, { headers: { "if-match": stale } });
    expect(refused.status).toBe(412);
    expect(refused.body.error.data.apiCode).toBe("PRECONDITION_FAILED");
    const refusedDelete = await trpc(cookie, "blogs.delete", { blogId: id }, { headers: { "if-match": stale } });
    expect(refusedDelete.status).toBe(412);
    expect(await storedBlog(id)).toEqual(before);

    // Overwriting is a write without If-Match.
    expect(trpcBlog(await trpc(cookie, "blogs.update", { blogId: id, title: "Mine" })).title).toBe("Mine");
  });
});
