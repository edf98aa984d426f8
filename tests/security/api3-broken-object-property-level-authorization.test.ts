import { createHash, randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { expectError, expectSuccess } from "../api/expect";
import { call, createTestAccount, db, seedBlogs, type TestAccount } from "../support/api";
import { authPost, signIn, trpc } from "../support/dashboard";

/**
 * OWASP API3:2023 Broken Object Property Level Authorization: no property the caller may not
 * write can be written (read-only blog fields over the API, the owner of a blog or key, an
 * account's plan at sign-up or in its settings), and no property the caller may not read is
 * shown (a blog is exactly its documented fields; a key is never shown again after creation,
 * nor its hash).
 */

/** The documented blog object (README, The API; docs/api.md, Writing). */
const BLOG_FIELDS = [
  "allowApiAccess", "blogSlug", "content", "coverImage", "createdAt", "description", "emailSubscribers", "emailedAt", "id", "isPublic",
  "publishAt", "publishedAt",
  "seoDescription", "seoTitle", "status", "tags", "title", "updatedAt",
];
/** What the dashboard shows of a key. */
const KEY_SUMMARY_FIELDS = ["createdAt", "createdBy", "deactivatedAt", "description", "expiresAt", "expiringSoon", "graceEndsAt", "id", "lastUsedAt", "maskedKey", "name", "permissions", "rolledAt", "rotationDue", "status"];
const READ_ONLY_FIELDS = ["id", "createdAt", "updatedAt", "allowApiAccess", "emailedAt"] as const;

let owner: TestAccount;
let other: TestAccount;
let cookie: string;
let blogId: string;

const json = { "content-type": "application/json" };
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

beforeAll(async () => {
  [owner, other] = await Promise.all([createTestAccount(), createTestAccount()]);
  cookie = await signIn(owner);
  blogId = (await seedBlogs(owner.id, [{ title: "Original", blogSlug: "original" }]))[0]!;
});

const blogRow = (id: string) => db().blog.findUniqueOrThrow({ where: { id } });

/** A value of `field` different from the blog's current one. */
function differentValue(field: (typeof READ_ONLY_FIELDS)[number]): unknown {
  if (field === "id") return `blog${randomUUID().replaceAll("-", "")}`;
  if (field === "allowApiAccess") return false;
  return "2001-02-03T04:05:06.000Z";
}

describe("read-only blog fields over the API", () => {
  it.each(READ_ONLY_FIELDS)("%s: a create that sets it is refused, creating nothing", async (field) => {
    const before = await db().blog.count({ where: { userId: owner.id } });
    const response = await call("/blogs", { key: owner.key, method: "POST", headers: json, body: JSON.stringify({ title: "Forged", [field]: differentValue(field) }) });
    expect(expectError(response, 400, "INVALID_PARAMETER").message).toBe(`Invalid parameter: ${field}`);
    expect(await db().blog.count({ where: { userId: owner.id } })).toBe(before);
  });

  it.each(READ_ONLY_FIELDS.flatMap((field) => (["PUT", "PATCH"] as const).map((method) => [method, field] as const)))(
    "%s with another %s is refused, changing nothing",
    async (method, field) => {
      const before = await blogRow(blogId);
      const body = JSON.stringify({ title: "Changed", [field]: differentValue(field) });
      const response = await call(`/blogs/${blogId}`, { key: owner.key, method, headers: json, body });
      expect(expectError(response, 400, "INVALID_PARAMETER").message).toBe(`Invalid parameter: ${field}`);
      expect(await blogRow(blogId)).toEqual(before);
    },
  );

  it("accepts the read values sent back unchanged, and changes only the writable field", async () => {
    const read = expectSuccess(await call(`/blogs/${blogId}`, { key: owner.key })).blog;
    const updated = expectSuccess(await call(`/blogs/${blogId}`, { key: owner.key, method: "PUT", headers: json, body: JSON.stringify({ ...read, title: "Sent back" }) })).blog;
    expect(updated).toMatchObject({ id: read.id, createdAt: read.createdAt, allowApiAccess: true, title: "Sent back" });
    expect(Date.parse(updated.updatedAt)).toBeGreaterThanOrEqual(Date.parse(read.updatedAt));
  });

  it("ignores an owner in the body: a blog stays in the account of the key", async () => {
    const body = JSON.stringify({ title: "Still mine", userId: other.id });
    expectSuccess(await call(`/blogs/${blogId}`, { key: owner.key, method: "PATCH", headers: json, body }));
    expect((await blogRow(blogId)).userId).toBe(owner.id);
    const created = expectSuccess(await call("/blogs", { key: owner.key, method: "POST", headers: json, body }), 201).blog;
    expect((await blogRow(created.id)).userId).toBe(owner.id);
  });
});

describe("read-only blog fields in the dashboard", () => {
  it("keep their values whatever the owner's update sends (API access is the owner's to switch)", async () => {
    const before = await blogRow(blogId);
    const forged = { blogId, id: blogId, createdAt: "2001-02-03T04:05:06.000Z", updatedAt: "2001-02-03T04:05:06.000Z", userId: other.id, title: "Owner's edit" };
    const answer = await trpc(cookie, "blogs.update", forged);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const after = await blogRow(blogId);
    expect(after).toMatchObject({ id: before.id, userId: owner.id, createdAt: before.createdAt, title: "Owner's edit" });
    expect(after.updatedAt.getTime()).toBeGreaterThan(Date.parse(forged.updatedAt));
  });
});

describe("what responses expose", () => {
  const expectBlog = (blog: object) => expect(Object.keys(blog).sort()).toEqual(BLOG_FIELDS);

  it("documents the blog object as exactly its fields", async () => {
    const doc = (await call("/openapi.json")).body as any;
    expect(Object.keys(doc.components.schemas.Blog.properties).sort()).toEqual(BLOG_FIELDS);
  });

  it("shows a blog as exactly its documented fields in every REST answer", async () => {
    const create = { key: owner.key, method: "POST", headers: { ...json, "idempotency-key": randomUUID() }, body: JSON.stringify({ title: "Shape" }) };
    const created = await call("/blogs", create);
    const { blog } = expectSuccess(created, 201);
    const replayed = await call("/blogs", create);
    expect(replayed.headers.get("idempotent-replayed")).toBe("true");
    const answers = [
      created,
      replayed,
      await call(`/blogs/${blog.id}`, { key: owner.key }),
      await call(`/blogs/slug/${blog.blogSlug}`, { key: owner.key }),
      await call(`/blogs/${blog.id}`, { key: owner.key, method: "PUT", headers: json, body: JSON.stringify({ seoTitle: "S" }) }),
      await call(`/blogs/${blog.id}`, { key: owner.key, method: "PATCH", headers: json, body: JSON.stringify({ seoTitle: "T" }) }),
    ];
    for (const answer of answers) expectBlog(expectSuccess(answer, answer.status).blog);
    const list = expectSuccess(await call("/blogs?limit=50", { key: owner.key }));
    expect(Object.keys(list).sort()).toEqual(["blogs", "pagination"]);
    for (const listed of list.blogs) expectBlog(listed);
    expect(expectSuccess(await call(`/blogs/${blog.id}`, { key: owner.key, method: "DELETE" }))).toEqual({ id: blog.id, deleted: true });
  });

  it("shows the dashboard's blogs with the same fields, never their owner", async () => {
    const answers = [
      (await trpc(cookie, "blogs.get", { blogId })).body.result.data.data.blog,
      ...(await trpc(cookie, "blogs.list", { limit: 50 })).body.result.data.data.blogs,
      (await trpc(cookie, "blogs.create", { title: "Dashboard shape" })).body.result.data.data.blog,
      (await trpc(cookie, "blogs.update", { blogId, isPublic: true })).body.result.data.data.blog,
    ];
    for (const blog of answers) expectBlog(blog);
  });

  it("reports analytics with its documented fields and key names, nothing of the keys themselves", async () => {
    const data = expectSuccess(await call("/analytics", { key: owner.key }));
    expect(Object.keys(data).sort()).toEqual(["byEndpoint", "byKey", "daily", "from", "to", "totals"]);
    expect(data.byKey.length).toBeGreaterThan(0);
    for (const row of data.byKey) expect(Object.keys(row).sort()).toEqual(["keyId", "name", "requests"]);
    expect(JSON.stringify(data)).not.toContain(owner.key);
    expect(JSON.stringify(data)).not.toContain(sha256(owner.key));
  });
});

describe("API keys in the dashboard", () => {
  it("show the full key once, at creation, and never again: not the key, not its hash", async () => {
    const created = await trpc(cookie, "keys.create", { name: "shown once", permissions: ["read:blogs"] });
    expect(Object.keys(created.body.result.data).sort()).toEqual(["expiresAt", "id", "key", "permissions"]);
    const { id, key } = created.body.result.data;
    const stored = await db().apiKey.findUniqueOrThrow({ where: { id } });
    expect(stored.keyHash).toBe(sha256(key));
    expect(JSON.stringify(stored)).not.toContain(key);

    const listed = await trpc(cookie, "keys.list");
    const text = JSON.stringify(listed.body);
    for (const secret of [key, owner.key, sha256(key), sha256(owner.key), "keyHash"]) expect(text).not.toContain(secret);
    for (const summary of listed.body.result.data) expect(Object.keys(summary).sort()).toEqual(KEY_SUMMARY_FIELDS);

    const deactivated = await trpc(cookie, "keys.deactivate", { id });
    expect(Object.keys(deactivated.body.result.data).sort()).toEqual(["deactivatedAt", "id"]);
  });
});

describe("an account's plan", () => {
  const newAccount = () => {
    const handle = `o${randomUUID().replaceAll("-", "").slice(0, 12)}`;
    return { email: `${handle}@example.test`, password: "password-123", name: handle, handle };
  };

  it("cannot be chosen at sign-up: an account asking for enterprise is free", async () => {
    const account = newAccount();
    const answer = await authPost("/sign-up/email", { ...account, plan: "enterprise" });
    expect([200, 400]).toContain(answer.status);
    const user = await db().user.findUnique({ where: { email: account.email } });
    if (answer.status === 200) {
      expect((await db().organization.findUniqueOrThrow({ where: { id: user!.id } })).plan).toBe("free");
      expect(JSON.stringify(answer.body)).not.toContain("enterprise");
      expect((await trpc(await signIn(account), "usage.rateLimit")).body.result.data).toMatchObject({ plan: "free", hourlyLimit: 100 });
    } else {
      expect(user).toBeNull();
    }
  });

  it("cannot be changed in the account settings (better-auth's update-user)", async () => {
    const account = newAccount();
    const signedUp = await authPost("/sign-up/email", account);
    expect(signedUp.status).toBe(200);
    const answer = await authPost("/update-user", { plan: "enterprise" }, await signIn(account));
    expect(answer.status).toBe(400);
    const { id } = await db().user.findUniqueOrThrow({ where: { email: account.email } });
    expect((await db().organization.findUniqueOrThrow({ where: { id } })).plan).toBe("free");
  });
});
