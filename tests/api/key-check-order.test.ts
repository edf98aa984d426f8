import { beforeAll, describe, expect, it } from "vitest";
import { call, createTestAccount, db, seedBlogs, type TestAccount } from "../support/api";

/**
 * The one check of the key runs right after routing, before the body is read (README, The API):
 * key, then permission, then rate limit, then the body.
 */

const json = { "content-type": "application/json" };
const remaining = (response: { headers: Headers }) => Number(response.headers.get("x-ratelimit-remaining"));

let account: TestAccount;
let blogId: string;

beforeAll(async () => {
  account = await createTestAccount("free");
  [blogId = ""] = await seedBlogs(account.id, [{ title: "Listed", blogSlug: "listed" }]);
});

describe("a request without a key", () => {
  it("is a 401 even when its body is malformed JSON, too large or not JSON", async () => {
    for (const request of [
      { headers: json, body: "{not json" },
      { headers: { "content-type": "text/plain" }, body: "title" },
      { headers: json, body: JSON.stringify({ title: "x".repeat(2 * 1024 * 1024) }) },
    ]) {
      const response = await call("/blogs", { method: "POST", ...request });
      expect(response.status).toBe(401);
      expect(response.json.error?.code).toBe("MISSING_API_KEY");
    }
  });
});

describe("a request with a valid key and a bad body", () => {
  it("consumes one unit of the budget and is recorded in usage, like every request past key and permission", async () => {
    const before = remaining(await call("/blogs", { key: account.key }));
    const malformed = await call("/blogs", { key: account.key, method: "POST", headers: json, body: "{not json" });
    expect(malformed.status).toBe(400);
    expect(remaining(malformed)).toBe(before - 1);
    const notJson = await call(`/blogs/${blogId}`, { key: account.key, method: "PATCH", headers: { "content-type": "text/plain" }, body: "x" });
    expect(notJson.status).toBe(415);
    expect(remaining(notJson)).toBe(before - 2);

    const analytics = await call("/analytics", { key: account.key });
    const endpoints = analytics.json.data.byEndpoint as { method: string; path: string; requests: number }[];
    expect(endpoints).toContainEqual({ method: "POST", path: "/blogs", requests: 1 });
    expect(endpoints).toContainEqual({ method: "PATCH", path: "/blogs/{blogId}", requests: 1 });
  });
});

describe("404 and 405 answers", () => {
  it("report the account's state from the one key check, consuming nothing", async () => {
    const before = remaining(await call("/blogs", { key: account.key }));
    const notFound = await call("/no-such-thing", { key: account.key });
    expect(notFound.status).toBe(404);
    const notAllowed = await call("/openapi.json", { key: account.key, method: "POST", headers: json, body: "{}" });
    expect(notAllowed.status).toBe(405);
    for (const response of [notFound, notAllowed]) {
      expect(remaining(response)).toBe(before);
      expect(response.headers.get("x-ratelimit-limit")).toBe("100");
    }
    expect(await db().usageDaily.count({ where: { userId: account.id, path: { not: { in: ["/blogs", "/analytics", "/blogs/{blogId}"] } } } })).toBe(0);
  });
});

describe("q on GET /blogs", () => {
  it("finds blogs by title or slug, ignoring case, and is documented", async () => {
    await seedBlogs(account.id, [{ title: "Another Post", blogSlug: "another" }, { title: "100% sure", blogSlug: "percent" }]);
    const byTitle = await call("/blogs?q=LISTED", { key: account.key });
    expect(byTitle.json.data.blogs.map((b: { id: string }) => b.id)).toEqual([blogId]);
    expect(byTitle.json.data.pagination.total).toBe(1);
    expect((await call("/blogs?q=anoth", { key: account.key })).json.data.pagination.total).toBe(1);
    // Wildcards are taken literally.
    expect((await call("/blogs?q=%25", { key: account.key })).json.data.pagination.total).toBe(1);
    const document = (await call("/openapi.json")).json as unknown as { paths: Record<string, { get: { parameters: { name: string; description?: string }[] } }> };
    const q = document.paths["/blogs"]!.get.parameters.find((p) => p.name === "q");
    expect(JSON.stringify(q)).toMatch(/title or slug/);
  });
});
