import { beforeAll, describe, expect, it } from "vitest";
import { apiBaseUrl, call, createTestAccount, createTestKey, db, seedBlogs, type TestAccount } from "../support/api";
import { signIn, trpc } from "../support/dashboard";

/**
 * The dashboard's tRPC endpoint (/api/trpc) over real HTTP: a session is required, an owner only
 * ever reaches their own data (all of their blogs, API access or not), and an API key is no credential there.
 */

let ann: TestAccount;
let bob: TestAccount;
let annCookie: string;
let bobCookie: string;
let annBlogId: string;
let annKeyId: string;

beforeAll(async () => {
  [ann, bob] = await Promise.all([createTestAccount("pro"), createTestAccount()]);
  [annCookie, bobCookie] = [await signIn(ann), await signIn(bob)];
  annBlogId = (await seedBlogs(ann.id, [{ title: "Ann's hidden draft", allowApiAccess: false }]))[0]!;
  annKeyId = (await trpc(annCookie, "keys.list")).body.result.data[0].id;
});

describe("without a session", () => {
  it.each(["blogs.list", "keys.list", "usage.rateLimit", "usage.analytics"])("%s is 401", async (procedure) => {
    const answer = await trpc(null, procedure, procedure === "blogs.list" ? {} : undefined);
    expect(answer.status).toBe(401);
    expect(answer.body.error.data.code).toBe("UNAUTHORIZED");
  });
});

describe("an owner", () => {
  it("lists all of their blogs, with or without API access, and finds them by search", async () => {
    const all = await trpc(annCookie, "blogs.list", {});
    expect(all.body.result.data.data.blogs.map((b: any) => b.id)).toEqual([annBlogId]);
    const none = await trpc(annCookie, "blogs.list", { q: "nothing like it" });
    expect(none.body.result.data.data.pagination.total).toBe(0);
    const found = await trpc(annCookie, "blogs.list", { q: "HIDDEN" });
    expect(found.body.result.data.data.pagination.total).toBe(1);
  });

  it("switches API access, and the API sees the change on its next request", async () => {
    expect((await call(`/blogs/${annBlogId}`, { key: ann.key })).status).toBe(404);
    const on = await trpc(annCookie, "blogs.update", { blogId: annBlogId, allowApiAccess: true });
    expect(on.body.result.data.data.blog.allowApiAccess).toBe(true);
    expect((await call(`/blogs/${annBlogId}`, { key: ann.key })).status).toBe(200);
    await trpc(annCookie, "blogs.update", { blogId: annBlogId, allowApiAccess: false });
    expect((await call(`/blogs/${annBlogId}`, { key: ann.key })).status).toBe(404);
  });

  it("is told the API's rule and message for an invalid field", async () => {
    const answer = await trpc(annCookie, "blogs.create", { title: "x", blogSlug: "Not A Slug" });
    expect(answer.status).toBe(400);
    expect(answer.body.error.data.details).toBe(
      "blogSlug must contain only lowercase letters a-z, digits 0-9 and single hyphens between them",
    );
  });

  it("is told the field a refusal is about in the error's data, for the form to point at", async () => {
    const invalid = await trpc(annCookie, "blogs.create", { title: "x", blogSlug: "Not A Slug" });
    expect(invalid.body.error.data.field).toBe("blogSlug");
    const missing = await trpc(annCookie, "blogs.create", { title: " " });
    expect(missing.body.error.data).toMatchObject({ apiCode: "MISSING_REQUIRED_FIELD", field: "title" });
    const slug = `taken-${crypto.randomUUID().slice(0, 8)}`;
    expect((await trpc(annCookie, "blogs.create", { title: "first", blogSlug: slug })).status).toBe(200);
    const conflict = await trpc(annCookie, "blogs.create", { title: "second", blogSlug: slug });
    expect(conflict.body.error.data).toMatchObject({ apiCode: "RESOURCE_CONFLICT", field: "blogSlug" });
  });

  it("sees each key's status, and keys older than 90 days flagged for rotation", async () => {
    const [old, expired] = [createTestKey(ann.id, { name: "old" }), createTestKey(ann.id, { name: "expired", expiresAt: "2020-01-01T00:00:00Z" })];
    await Promise.all([old, expired]);
    const day = 24 * 60 * 60 * 1000;
    await db().apiKey.updateMany({ where: { userId: ann.id, name: "old" }, data: { createdAt: new Date(Date.now() - 91 * day) } });
    const keys: any[] = (await trpc(annCookie, "keys.list")).body.result.data;
    const byName = (name: string) => keys.find((k) => k.name === name);
    expect(byName("old")).toMatchObject({ status: "active", rotationDue: true });
    expect(byName("expired")).toMatchObject({ status: "expired", rotationDue: false });
    expect(keys.find((k) => k.id === annKeyId)).toMatchObject({ status: "active", rotationDue: false });
    expect(byName("old").maskedKey).toMatch(/^bm_[a-z0-9]{4}…[a-z0-9]{4}$/);
  });

  it("sees the plan's hourly limit and the current window", async () => {
    const answer = await trpc(annCookie, "usage.rateLimit");
    expect(answer.body.result.data).toMatchObject({ plan: "pro", hourlyLimit: 1000 });
    expect(Date.parse(answer.body.result.data.resetAt) % 3_600_000).toBe(0);
  });
});

describe("another account", () => {
  it("sees none of the owner's blogs or keys", async () => {
    expect((await trpc(bobCookie, "blogs.list", {})).body.result.data.data.pagination.total).toBe(0);
    const keys = (await trpc(bobCookie, "keys.list")).body.result.data;
    expect(keys.map((k: any) => k.id)).not.toContain(annKeyId);
  });

  it.each([
    ["blogs.get", { blogId: "BLOG" }],
    ["blogs.update", { blogId: "BLOG", title: "Taken over" }],
    ["blogs.delete", { blogId: "BLOG" }],
    ["keys.deactivate", { id: "KEY" }],
  ] as const)("gets 404 from %s on the owner's ids, changing nothing", async (procedure, input) => {
    const withIds = JSON.parse(JSON.stringify(input).replace("BLOG", annBlogId).replace("KEY", annKeyId));
    const answer = await trpc(bobCookie, procedure, withIds);
    expect(answer.status).toBe(404);
    const blog = await trpc(annCookie, "blogs.get", { blogId: annBlogId });
    expect(blog.body.result.data.data.blog.title).toBe("Ann's hidden draft");
    const key = (await trpc(annCookie, "keys.list")).body.result.data.find((k: any) => k.id === annKeyId);
    expect(key.status).toBe("active");
  });
});

describe("an API key on /api/trpc", () => {
  it("is no credential there: the caller of /api/trpc is the signed-in owner only", async () => {
    const response = await fetch(new URL(`/api/trpc/blogs.list?input=${encodeURIComponent("{}")}`, apiBaseUrl()), {
      headers: { "x-api-key": ann.key },
    });
    expect(response.status).toBe(401);
  });
});
