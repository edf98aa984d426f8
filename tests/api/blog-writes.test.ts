import { beforeAll, describe, expect, it } from "vitest";
import { call, createTestAccount, createTestKey, db, seedBlogs, seedImage, type TestAccount } from "../support/api";
import { signIn, trpc } from "../support/dashboard";
import { expectError, expectSuccess } from "./expect";

let owner: TestAccount;
let intruder: TestAccount;

beforeAll(async () => {
  [owner, intruder] = await Promise.all([createTestAccount(), createTestAccount()]);
});

const json = (body: unknown) => ({ body: JSON.stringify(body), headers: { "content-type": "application/json" } });
const post = (body: unknown, key = owner.key, headers: Record<string, string> = {}) =>
  call("/blogs", { key, method: "POST", ...json(body), headers: { "content-type": "application/json", ...headers } });
const update = (id: string, body: unknown, method: "PUT" | "PATCH" = "PUT", key = owner.key) =>
  call(`/blogs/${id}`, { key, method, ...json(body) });
const blogCount = (accountId: string) => db().blog.count({ where: { userId: accountId } });

describe("POST /api/v1/blogs", () => {
  it("creates a blog with API access, not public by default, 201 with the blog", async () => {
    const blog = expectSuccess(await post({ title: "  Hello, Wörld!  ", description: "d", content: "# Hi" }), 201).blog;
    expect(blog).toMatchObject({
      title: "Hello, Wörld!",
      blogSlug: "hello-world",
      description: "d",
      content: "# Hi",
      isPublic: false,
      allowApiAccess: true,
      seoTitle: "",
      seoDescription: "",
    });
    expect(blog.createdAt).toBe(blog.updatedAt);
    const read = expectSuccess(await call(`/blogs/${blog.id}`, { key: owner.key })).blog;
    expect(read).toEqual(blog);
  });

  it("derives -2, -3 for taken derived slugs, and refuses a taken explicit slug with 409", async () => {
    const account = await createTestAccount();
    const slugs = [];
    for (let i = 0; i < 3; i++) slugs.push(expectSuccess(await post({ title: "Same Title" }, account.key), 201).blog.blogSlug);
    expect(slugs).toEqual(["same-title", "same-title-2", "same-title-3"]);
    const error = expectError(await post({ title: "x", blogSlug: "same-title-2" }, account.key), 409, "RESOURCE_CONFLICT");
    expect(error.details).toContain("same-title-2");
  });

  it("keeps slugs unique per account only", async () => {
    const a = await createTestAccount();
    const b = await createTestAccount();
    expectSuccess(await post({ title: "x", blogSlug: "shared-slug" }, a.key), 201);
    expectSuccess(await post({ title: "x", blogSlug: "shared-slug" }, b.key), 201);
  });

  it.each([
    [{}, "title is required"],
    [{ title: null }, "title is required"],
    [{ title: "   " }, "title is required"],
  ])("answers %j with 400 MISSING_REQUIRED_FIELD", async (body, details) => {
    const before = await blogCount(owner.id);
    expect(expectError(await post(body), 400, "MISSING_REQUIRED_FIELD").details).toBe(details);
    expect(await blogCount(owner.id)).toBe(before);
  });

  it.each([
    [{ title: "x".repeat(201) }, "title must be 1 to 200 characters"],
    [{ title: 7 }, "title must be a string"],
    [{ title: "t", blogSlug: "Bad Slug" }, "blogSlug must contain only lowercase letters a-z, digits 0-9 and single hyphens between them"],
    [{ title: "t", blogSlug: "a--b" }, "blogSlug must contain only lowercase letters a-z, digits 0-9 and single hyphens between them"],
    [{ title: "t", blogSlug: "a".repeat(101) }, "blogSlug must be 1 to 100 characters"],
    [{ title: "t", blogSlug: "" }, "blogSlug must be 1 to 100 characters"],
    [{ title: "t", description: "x".repeat(1001) }, "description must be at most 1000 characters"],
    [{ title: "t", seoTitle: "x".repeat(201) }, "seoTitle must be at most 200 characters"],
    [{ title: "t", seoDescription: "x".repeat(501) }, "seoDescription must be at most 500 characters"],
    [{ title: "t", content: "x".repeat(500_001) }, "content must be at most 500000 characters"],
    [{ title: "t", isPublic: "true" }, "isPublic must be a boolean"],
    [{ title: "t", isPublic: 1 }, "isPublic must be a boolean"],
    [{ title: "t", description: null }, "description must be a string"],
    [{ title: "t", allowApiAccess: false }, "allowApiAccess is changed only in the dashboard (blog settings, Allow API Access)"],
    [{ title: "t", id: "abc" }, "id is read-only and set by the server"],
  ])("answers %j with 400 INVALID_PARAMETER naming the field", async (body, details) => {
    const before = await blogCount(owner.id);
    expect(expectError(await post(body), 400, "INVALID_PARAMETER").details).toBe(details);
    expect(await blogCount(owner.id)).toBe(before);
  });

  it("accepts the longest allowed values and ignores unknown fields", async () => {
    const body = {
      title: "t".repeat(200),
      blogSlug: `s${"-a".repeat(49)}x`,
      description: "d".repeat(1000),
      seoTitle: "s".repeat(200),
      seoDescription: "s".repeat(500),
      content: "c".repeat(500_000),
      isPublic: true,
      allowApiAccess: true,
      favouriteColour: "green",
    };
    const blog = expectSuccess(await post(body), 201).blog;
    expect(blog).not.toHaveProperty("favouriteColour");
    expect(blog).toMatchObject({ isPublic: true, content: body.content, blogSlug: body.blogSlug });
  });

  it("refuses bodies that are not JSON, malformed or over 1 MiB, creating nothing", async () => {
    const before = await blogCount(owner.id);
    expectError(await call("/blogs", { key: owner.key, method: "POST", body: '{"title":"x"}', headers: { "content-type": "text/plain" } }), 415, "UNSUPPORTED_MEDIA_TYPE");
    expectError(await call("/blogs", { key: owner.key, method: "POST", body: '{"title":"x"}' }), 415, "UNSUPPORTED_MEDIA_TYPE");
    expectError(await call("/blogs", { key: owner.key, method: "POST", body: '{"title":', headers: { "content-type": "application/json" } }), 400, "INVALID_PARAMETER");
    const huge = JSON.stringify({ title: "x", content: "c".repeat(1024 * 1024) });
    expectError(await call("/blogs", { key: owner.key, method: "POST", body: huge, headers: { "content-type": "application/json" } }), 413, "PAYLOAD_TOO_LARGE");
    expect(await blogCount(owner.id)).toBe(before);
  });

  it("accepts JSON declared with a charset", async () => {
    const response = await call("/blogs", {
      key: owner.key,
      method: "POST",
      body: JSON.stringify({ title: "charset" }),
      headers: { "content-type": "application/json; charset=utf-8" },
    });
    expectSuccess(response, 201);
  });

  it("gives exactly one 201 to many simultaneous creates of one explicit slug", async () => {
    const account = await createTestAccount();
    const responses = await Promise.all(Array.from({ length: 20 }, () => post({ title: "race", blogSlug: "race" }, account.key)));
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    expect(await db().blog.count({ where: { userId: account.id, blogSlug: "race" } })).toBe(1);
  });

  it("derives distinct slugs for simultaneous creates of one title", async () => {
    const account = await createTestAccount();
    const responses = await Promise.all(Array.from({ length: 8 }, () => post({ title: "Busy Title" }, account.key)));
    expect(responses.map((r) => r.status)).toEqual(Array(8).fill(201));
    expect(new Set(responses.map((r) => r.json.data.blog.blogSlug)).size).toBe(8);
  });

  it("needs write:blogs", async () => {
    const key = await createTestKey(owner.id, { permissions: ["read:blogs", "delete:blogs"] });
    expect(expectError(await post({ title: "x" }, key), 403, "INSUFFICIENT_PERMISSIONS").message).toBe(
      "This API key lacks the write:blogs permission",
    );
  });
});

describe("GET /api/v1/blogs/{id} and /blogs/slug/{blogSlug}", () => {
  it("reads a blog by id and by slug", async () => {
    const blog = expectSuccess(await post({ title: "Readable", seoTitle: "SEO" }), 201).blog;
    expect(expectSuccess(await call(`/blogs/${blog.id}`, { key: owner.key })).blog).toEqual(blog);
    expect(expectSuccess(await call(`/blogs/slug/${blog.blogSlug}`, { key: owner.key })).blog).toEqual(blog);
  });

  it("treats unknown ids and slugs as 404 RESOURCE_NOT_FOUND without details", async () => {
    const error = expectError(await call("/blogs/does-not-exist", { key: owner.key }), 404, "RESOURCE_NOT_FOUND");
    expect(error).not.toHaveProperty("details");
    expectError(await call("/blogs/slug/does-not-exist", { key: owner.key }), 404, "RESOURCE_NOT_FOUND");
  });
});

describe("PUT and PATCH /api/v1/blogs/{id}", () => {
  it("changes only the fields sent, and advances updatedAt", async () => {
    const blog = expectSuccess(await post({ title: "Original", description: "keep me", isPublic: false }), 201).blog;
    await new Promise((r) => setTimeout(r, 5));
    const updated = expectSuccess(await update(blog.id, { title: "Renamed", isPublic: true })).blog;
    // Published by this write: at its time.
    expect(updated).toMatchObject({ ...blog, title: "Renamed", isPublic: true, status: "published", publishedAt: updated.updatedAt, updatedAt: updated.updatedAt });
    expect(Date.parse(updated.updatedAt)).toBeGreaterThan(Date.parse(blog.updatedAt));
    const patched = expectSuccess(await update(blog.id, { seoTitle: "SEO" }, "PATCH")).blog;
    expect(patched).toMatchObject({ title: "Renamed", description: "keep me", seoTitle: "SEO" });
  });

  it("accepts a blog sent back as read, read-only fields included", async () => {
    const blog = expectSuccess(await post({ title: "Round trip" }), 201).blog;
    const updated = expectSuccess(await update(blog.id, { ...blog, title: "Round trip 2" })).blog;
    expect(updated.title).toBe("Round trip 2");
  });

  it.each([
    ["id", "other-id"],
    ["createdAt", "2020-01-01T00:00:00.000Z"],
    ["updatedAt", "2020-01-01T00:00:00.000Z"],
    ["allowApiAccess", false],
  ])("refuses a changed read-only %s", async (field, value) => {
    const blog = expectSuccess(await post({ title: "Guarded" }), 201).blog;
    const error = expectError(await update(blog.id, { title: "x", [field]: value }), 400, "INVALID_PARAMETER");
    expect(error.details).toContain(field);
    expect(expectSuccess(await call(`/blogs/${blog.id}`, { key: owner.key })).blog).toEqual(blog);
  });

  it("refuses an update without a writable field", async () => {
    const blog = expectSuccess(await post({ title: "Idle" }), 201).blog;
    expectError(await update(blog.id, {}), 400, "INVALID_PARAMETER");
    expectError(await update(blog.id, { id: blog.id, createdAt: blog.createdAt }), 400, "INVALID_PARAMETER");
  });

  it("refuses a blank title and a taken slug", async () => {
    const first = expectSuccess(await post({ title: "First", blogSlug: "first-taken" }), 201).blog;
    const second = expectSuccess(await post({ title: "Second" }), 201).blog;
    expectError(await update(second.id, { title: "  " }), 400, "INVALID_PARAMETER");
    expect(expectError(await update(second.id, { blogSlug: first.blogSlug }), 409, "RESOURCE_CONFLICT").details).toContain(first.blogSlug);
    expectSuccess(await update(first.id, { blogSlug: first.blogSlug }));
  });
});

describe("coverImage", () => {
  const REFUSAL = "coverImage must be the id of an image in this account, or null";

  it("takes an image of the account on create and on PUT and PATCH; null clears it", async () => {
    const [first, second] = [await seedImage(owner.id), await seedImage(owner.id)];
    const blog = expectSuccess(await post({ title: "Covered", coverImage: first }), 201).blog;
    expect(blog.coverImage).toBe(first);
    expect(expectSuccess(await call(`/blogs/${blog.id}`, { key: owner.key })).blog).toEqual(blog);
    expect(expectSuccess(await update(blog.id, { coverImage: second }, "PUT")).blog.coverImage).toBe(second);
    const cleared = expectSuccess(await update(blog.id, { coverImage: null }, "PATCH")).blog;
    expect(cleared).toMatchObject({ title: "Covered", coverImage: null });
    expect(expectSuccess(await post({ title: "Uncovered" }), 201).blog.coverImage).toBeNull();
  });

  it("refuses another account's image exactly as an unknown id, with 400 naming coverImage, changing nothing", async () => {
    const mine = await seedImage(owner.id);
    const theirs = await seedImage(intruder.id);
    const blog = expectSuccess(await post({ title: "Guarded cover", coverImage: mine }), 201).blog;
    const before = await blogCount(owner.id);
    const answers = [];
    for (const coverImage of [theirs, "climage-unknown-000000000", ""]) {
      answers.push(expectError(await post({ title: "Refused", coverImage }), 400, "INVALID_PARAMETER"));
      answers.push(expectError(await update(blog.id, { coverImage }, "PUT"), 400, "INVALID_PARAMETER"));
      answers.push(expectError(await update(blog.id, { title: "Not this either", coverImage }, "PATCH"), 400, "INVALID_PARAMETER"));
    }
    expect(new Set(answers.map((error) => JSON.stringify(error)))).toEqual(new Set([JSON.stringify({ code: "INVALID_PARAMETER", message: "Invalid parameter: coverImage", details: REFUSAL })]));
    expect(expectError(await post({ title: "t", coverImage: 7 }), 400, "INVALID_PARAMETER").details).toBe("coverImage must be an image id (a string) or null");
    expect(await blogCount(owner.id)).toBe(before);
    expect(expectSuccess(await call(`/blogs/${blog.id}`, { key: owner.key })).blog).toEqual(blog);
  });

  it("is named as the field of the dashboard's refusal", async () => {
    const cookie = await signIn(owner);
    const blog = expectSuccess(await post({ title: "Dashboard cover" }), 201).blog;
    const refused = await trpc(cookie, "blogs.update", { blogId: blog.id, coverImage: await seedImage(intruder.id) });
    expect(refused.body.error.data).toMatchObject({ apiCode: "INVALID_PARAMETER", field: "coverImage" });
    const image = await seedImage(owner.id);
    expect((await trpc(cookie, "blogs.update", { blogId: blog.id, coverImage: image })).status).toBe(200);
  });

  it("is null once its image is deleted, and the blog stays readable and writable", async () => {
    const image = await seedImage(owner.id);
    const blog = expectSuccess(await post({ title: "Losing its cover", coverImage: image }), 201).blog;
    await db().image.delete({ where: { id: image } });
    const read = expectSuccess(await call(`/blogs/${blog.id}`, { key: owner.key })).blog;
    expect(read).toEqual({ ...blog, coverImage: null });
    expect(expectSuccess(await call("/blogs?q=losing-its-cover", { key: owner.key })).blogs).toEqual([read]);
    expect(expectSuccess(await update(blog.id, { title: "Still editable" })).blog).toMatchObject({ title: "Still editable", coverImage: null });
  });
});

describe("DELETE /api/v1/blogs/{id}", () => {
  it("deletes the blog for every read path", async () => {
    const blog = expectSuccess(await post({ title: "Doomed" }), 201).blog;
    expect(expectSuccess(await call(`/blogs/${blog.id}`, { key: owner.key, method: "DELETE" }))).toEqual({ id: blog.id, deleted: true });
    expectError(await call(`/blogs/${blog.id}`, { key: owner.key }), 404, "RESOURCE_NOT_FOUND");
    expectError(await call(`/blogs/slug/${blog.blogSlug}`, { key: owner.key }), 404, "RESOURCE_NOT_FOUND");
    const listed = expectSuccess(await call("/blogs?limit=50", { key: owner.key })).blogs.map((b: { id: string }) => b.id);
    expect(listed).not.toContain(blog.id);
    expectError(await call(`/blogs/${blog.id}`, { key: owner.key, method: "DELETE" }), 404, "RESOURCE_NOT_FOUND");
  });

  it("needs delete:blogs", async () => {
    const blog = expectSuccess(await post({ title: "Kept" }), 201).blog;
    const key = await createTestKey(owner.id, { permissions: ["read:blogs", "write:blogs"] });
    expectError(await call(`/blogs/${blog.id}`, { key, method: "DELETE" }), 403, "INSUFFICIENT_PERMISSIONS");
  });
});

describe("tenant isolation and API access", () => {
  it("gives another account's key 404 for every operation, changing nothing", async () => {
    const blog = expectSuccess(await post({ title: "Mine", blogSlug: "mine-only" }), 201).blog;
    const probes = [
      call(`/blogs/${blog.id}`, { key: intruder.key }),
      call(`/blogs/slug/${blog.blogSlug}`, { key: intruder.key }),
      update(blog.id, { title: "Hacked" }, "PUT", intruder.key),
      update(blog.id, { title: "Hacked" }, "PATCH", intruder.key),
      call(`/blogs/${blog.id}`, { key: intruder.key, method: "DELETE" }),
    ];
    for (const response of await Promise.all(probes)) expectError(response, 404, "RESOURCE_NOT_FOUND");
    expect(expectSuccess(await call(`/blogs/${blog.id}`, { key: owner.key })).blog).toEqual(blog);
  });

  it("treats a blog without API access as not existing, for reads and writes", async () => {
    const [hiddenId] = await seedBlogs(owner.id, [{ title: "Dashboard only", blogSlug: "dashboard-only", allowApiAccess: false }]);
    expectError(await call(`/blogs/${hiddenId}`, { key: owner.key }), 404, "RESOURCE_NOT_FOUND");
    expectError(await call("/blogs/slug/dashboard-only", { key: owner.key }), 404, "RESOURCE_NOT_FOUND");
    expectError(await update(hiddenId!, { title: "x" }), 404, "RESOURCE_NOT_FOUND");
    expectError(await call(`/blogs/${hiddenId}`, { key: owner.key, method: "DELETE" }), 404, "RESOURCE_NOT_FOUND");
    expect(await db().blog.findUnique({ where: { id: hiddenId } })).toMatchObject({ title: "Dashboard only" });
  });
});

describe("blogs brought in by the CLI import", () => {
  it("come back unchanged through the API", async () => {
    const { importBlogs } = await import("~/server/blogs/import-blogs");
    const account = await createTestAccount();
    const entry = {
      title: "Imported",
      blogSlug: "imported",
      description: "from the old system",
      content: "# Old",
      isPublic: true,
      allowApiAccess: true,
      seoTitle: "Old SEO",
      seoDescription: "Old description",
      createdAt: "2021-05-04T10:00:00.000Z",
      updatedAt: "2022-01-01T00:00:00.000Z",
    };
    await importBlogs(db(), { accountId: account.id, blogs: [entry] });
    const blog = expectSuccess(await call("/blogs/slug/imported", { key: account.key })).blog;
    // A public blog without publishedAt was published when it was created.
    expect(blog).toEqual({
      ...entry,
      id: blog.id,
      tags: [],
      authors: [account.id],
      coverImage: null,
      emailSubscribers: false,
      emailedAt: null,
      status: "published",
      publishAt: null,
      publishedAt: entry.createdAt,
    });
  });
});
