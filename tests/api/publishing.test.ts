// Publishing over HTTP (docs/api.md, publishing and tags): status and publishAt rules, revisions
// from every write path (API key, dashboard, CLI import, plain SQL) with restore, tags with their
// filter and counts, and the list's status filter and sorts with cursors that carry them.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { apiBaseUrl, call, createTestAccount, createTestKey, db, type TestAccount } from "../support/api";
import { runCli } from "../support/cli";
import { signIn, trpc } from "../support/dashboard";
import { blogEntityTag } from "~/server/api/routers/blogs/blog-entity-tag";
import { tempDirMaker } from "../support/temp-dir";

const tempDir = tempDirMaker("blogmgr-publishing-");
import { expectError, expectSuccess } from "./expect";

let account: TestAccount;

const json = (method: string, body: unknown, headers: Record<string, string> = {}) => ({
  method,
  key: account.key,
  headers: { "content-type": "application/json", ...headers },
  body: JSON.stringify(body),
});
const create = async (body: Record<string, unknown>) => expectSuccess(await call("/blogs", json("POST", body)), 201).blog;
const patch = (id: string, body: unknown, headers?: Record<string, string>) => call(`/blogs/${id}`, json("PATCH", body, headers));
const revisionsOf = async (id: string, query = "") => expectSuccess(await call(`/blogs/${id}/revisions${query}`, { key: account.key }));
const inMinutes = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();

beforeAll(async () => {
  account = await createTestAccount();
});

describe("status and publishAt", () => {
  it("schedules a draft, cancels it, and publishing clears the schedule but keeps the first publishedAt", async () => {
    const blog = await create({ title: "Scheduled", publishAt: inMinutes(60) });
    expect(blog).toMatchObject({ status: "scheduled", isPublic: false, publishedAt: null });
    const cancelled = expectSuccess(await patch(blog.id, { publishAt: null })).blog;
    expect(cancelled).toMatchObject({ status: "draft", publishAt: null });

    const published = expectSuccess(await patch(blog.id, { publishAt: inMinutes(30), isPublic: true })).blog;
    expect(published).toMatchObject({ status: "published", publishAt: null, isPublic: true });
    const unpublished = expectSuccess(await patch(blog.id, { isPublic: false })).blog;
    expect(unpublished).toMatchObject({ status: "draft", publishedAt: published.publishedAt });
    const republished = expectSuccess(await patch(blog.id, { isPublic: true })).blog;
    expect(republished.publishedAt).toBe(published.publishedAt);
  });

  it("refuses a past or present moment, a moment without a time zone, and a schedule on a public blog", async () => {
    const blog = await create({ title: "Not in the past" });
    for (const publishAt of [new Date(Date.now() - 1000).toISOString(), "2099-01-01T09:00:00", "tomorrow", 5]) {
      const error = expectError(await patch(blog.id, { publishAt }), 400, "INVALID_PARAMETER");
      expect(error.details, String(publishAt)).toContain("publishAt");
    }
    const live = await create({ title: "Live", isPublic: true });
    const error = expectError(await patch(live.id, { publishAt: inMinutes(5) }), 400, "INVALID_PARAMETER");
    expect(error.details).toContain("isPublic: false");
    expect(expectSuccess(await patch(live.id, { publishAt: inMinutes(5), isPublic: false })).blog).toMatchObject({ status: "scheduled" });
  });

  it("accepts status and publishedAt sent back as read, and refuses them changed", async () => {
    const blog = await create({ title: "Round trip with status" });
    expect(expectSuccess(await patch(blog.id, { ...blog, title: "Round trip again" })).blog.title).toBe("Round trip again");
    expectError(await patch(blog.id, { status: "published" }), 400, "INVALID_PARAMETER");
    expectError(await patch(blog.id, { publishedAt: "2020-01-01T00:00:00.000Z" }), 400, "INVALID_PARAMETER");
  });
});

describe("a blog's ETag", () => {
  it("is one value, blogEntityTag, at /api/v1, at /api/trpc and for If-Match", async () => {
    const blog = await create({ title: "Tagged once", tags: ["One"], publishAt: inMinutes(90) });
    const viaKey = await call(`/blogs/${blog.id}`, { key: account.key });
    const tag = viaKey.headers.get("etag");
    expect(tag).toBe(blogEntityTag(expectSuccess(viaKey).blog));
    const viaSession = await trpc(await signIn(account), "blogs.get", { blogId: blog.id });
    expect(viaSession.headers.get("etag")).toBe(tag);
    expect(expectSuccess(await patch(blog.id, { content: "changed" }, { "if-match": tag! })).blog.content).toBe("changed");
  });
});

describe("revisions", () => {
  it("are recorded by an API update, a dashboard save, a CLI import and a plain SQL UPDATE, each once, naming what made them", async () => {
    const blog = await create({ title: "History", content: "v1" });
    expect(expectSuccess(await patch(blog.id, { content: "v2" })).blog.content).toBe("v2");
    const cookie = await signIn(account);
    expect((await trpc(cookie, "blogs.patch", { blogId: blog.id, content: "v3" })).status).toBe(200);
    await db().$executeRaw`UPDATE "blog" SET "content" = 'v4' WHERE "id" = ${blog.id}`;
    // Changes to nothing the history keeps record nothing.
    expectSuccess(await patch(blog.id, { isPublic: true }));

    const { revisions, pagination } = await revisionsOf(blog.id);
    expect(pagination).toMatchObject({ page: 1, total: 4, hasNext: false });
    expect(revisions.map((r: { changedBy: string; apiKeyName: string | null }) => [r.changedBy, r.apiKeyName])).toEqual([
      ["database", null],
      ["owner", null],
      ["api_key", "test key"],
      ["api_key", "test key"],
    ]);
    expect(revisions[0].changedFields).toEqual(["content"]);
    expect(revisions[3].changedFields).toEqual(["title", "description", "content", "seoTitle", "seoDescription", "tags"]);
    expect(revisions[0]).not.toHaveProperty("content");

    const dir = await tempDir();
    const file = join(dir, "import.json");
    await writeFile(file, JSON.stringify([{ title: "Imported with history", blogSlug: "imported-history", allowApiAccess: true, tags: ["CLI"] }]));
    expect((await runCli(["blogs", "import", "--email", account.email, "--file", file])).code).toBe(0);
    const imported = expectSuccess(await call("/blogs/slug/imported-history", { key: account.key })).blog;
    expect(imported.tags).toEqual(["CLI"]);
    expect((await revisionsOf(imported.id)).revisions.map((r: { changedBy: string }) => r.changedBy)).toEqual(["cli"]);
  });

  it("restores an old text as a new revision, honouring If-Match", async () => {
    const blog = await create({ title: "Restorable", content: "first", tags: ["One"] });
    expectSuccess(await patch(blog.id, { content: "second", tags: [] }));
    const [, first] = (await revisionsOf(blog.id)).revisions;
    const full = expectSuccess(await call(`/blogs/${blog.id}/revisions/${first.id}`, { key: account.key })).revision;
    expect(full).toMatchObject({ content: "first", tags: ["One"], title: "Restorable" });

    const stale = await call(`/blogs/${blog.id}/revisions/${first.id}/restore`, { method: "POST", key: account.key, headers: { "if-match": '"stale"' } });
    expectError(stale, 412, "PRECONDITION_FAILED");
    const current = await call(`/blogs/${blog.id}`, { key: account.key });
    const restored = await call(`/blogs/${blog.id}/revisions/${first.id}/restore`, { method: "POST", key: account.key, headers: { "if-match": current.headers.get("etag")! } });
    expect(expectSuccess(restored).blog).toMatchObject({ content: "first", tags: ["One"] });
    const [latest] = (await revisionsOf(blog.id)).revisions;
    expect(latest).toMatchObject({ changedBy: "restore", changedFields: ["content", "tags"] });

    expectError(await call(`/blogs/${blog.id}/revisions/rev_unknown`, { key: account.key }), 404, "RESOURCE_NOT_FOUND");
    // A restore needs no body; a create without one is missing its title, not of the wrong type.
    expectError(await call("/blogs", { method: "POST", key: account.key }), 400, "MISSING_REQUIRED_FIELD");
    const other = await createTestAccount();
    expectError(await call(`/blogs/${blog.id}/revisions`, { key: other.key }), 404, "RESOURCE_NOT_FOUND");
    expectError(await call(`/blogs/${blog.id}/revisions/${first.id}`, { key: other.key }), 404, "RESOURCE_NOT_FOUND");
  });

  it("keeps the newest 100: the 101st change drops the oldest", async () => {
    const blog = await create({ title: "Many changes", content: "0" });
    for (let n = 1; n <= 100; n++) await db().$executeRaw`UPDATE "blog" SET "content" = ${String(n)} WHERE "id" = ${blog.id}`;
    const { pagination } = await revisionsOf(blog.id, "?limit=50&page=2");
    expect(pagination).toMatchObject({ total: 100, totalPages: 2 });
    const rows = await db().blogRevision.findMany({ where: { blogId: blog.id }, orderBy: { seq: "asc" }, select: { content: true } });
    expect(rows.map((row) => row.content)).toEqual(Array.from({ length: 100 }, (_, i) => String(i + 1)));
  });

  it("does not take a blog whose slug is revisions for a blog's history", async () => {
    const blog = await create({ title: "Revisions", blogSlug: "revisions" });
    expect(expectSuccess(await call("/blogs/slug/revisions", { key: account.key })).blog.id).toBe(blog.id);
  });
});

describe("tags", () => {
  it("are kept as written, one per slug, filtered by slug or name and counted", async () => {
    const owner = await createTestAccount();
    const post = (body: Record<string, unknown>) => call("/blogs", { ...json("POST", body), key: owner.key });
    const a = expectSuccess(await post({ title: "A", tags: [" Next.js ", "next-js", "Databases"] }), 201).blog;
    expect(a.tags).toEqual(["Next.js", "Databases"]);
    expectSuccess(await post({ title: "B", tags: ["NEXT.JS"] }), 201);
    expectSuccess(await post({ title: "C" }), 201);

    for (const tag of ["next-js", "Next.js", "NEXT JS"]) {
      const { blogs, pagination } = expectSuccess(await call(`/blogs?tag=${encodeURIComponent(tag)}`, { key: owner.key }));
      expect(pagination.total, tag).toBe(2);
      expect(blogs.map((b: { title: string }) => b.title).sort()).toEqual(["A", "B"]);
    }
    const { tags } = expectSuccess(await call("/tags", { key: owner.key }));
    expect(tags).toEqual([
      { slug: "next-js", name: "NEXT.JS", count: 2 },
      { slug: "databases", name: "Databases", count: 1 },
    ]);
    expectError(await call("/blogs?tag=%21%21", { key: owner.key }), 400, "INVALID_PARAMETER");
    const reader = await createTestKey(owner.id, { name: "no reads", permissions: ["write:blogs"] });
    expectError(await call("/tags", { key: reader }), 403, "INSUFFICIENT_PERMISSIONS");
  });

  it("refuses more than 10, an empty or over-long tag, and one without a letter or digit", async () => {
    for (const tags of [Array.from({ length: 11 }, (_, i) => `t${i}`), [" "], ["x".repeat(51)], ["!!!"], "one", [1]]) {
      const error = expectError(await call("/blogs", json("POST", { title: "Tagged", tags })), 400, "INVALID_PARAMETER");
      expect(error.details, JSON.stringify(tags)).toMatch(/tag/);
    }
  });
});

describe("the list's status filter and sorts", () => {
  let owner: TestAccount;
  beforeAll(async () => {
    owner = await createTestAccount();
    const post = (body: Record<string, unknown>) => call("/blogs", { ...json("POST", body), key: owner.key });
    for (const [i, title] of ["delta", "Alpha", "charlie", "bravo", "echo", "foxtrot", "golf"].entries()) {
      const body = i % 3 === 0 ? { title, isPublic: true } : i % 3 === 1 ? { title, publishAt: inMinutes(10 + i) } : { title };
      expectSuccess(await post(body), 201);
    }
  });
  const titles = (blogs: { title: string }[]) => blogs.map((b) => b.title);

  it("filters by status, with public, both holding, and exact totals", async () => {
    const list = async (query: string) => expectSuccess(await call(`/blogs?${query}`, { key: owner.key }));
    expect((await list("status=published")).pagination.total).toBe(3);
    expect((await list("status=scheduled")).pagination.total).toBe(2);
    expect((await list("status=draft")).pagination.total).toBe(2);
    expect((await list("status=draft&public=false")).pagination.total).toBe(2);
    expect((await list("status=draft&public=true")).pagination.total).toBe(0);
    expectError(await call("/blogs?status=archived", { key: owner.key }), 400, "INVALID_PARAMETER");
    expectError(await call("/blogs?sort=newest", { key: owner.key }), 400, "INVALID_PARAMETER");
  });

  it.each(["title", "-title", "publishedAt", "-publishedAt", "updatedAt", "-updatedAt", "createdAt", "-createdAt"])(
    "walks sort=%s page by page with cursors in the same order as by page numbers",
    async (sort) => {
      const byNumber: string[] = [];
      for (let page = 1; page <= 4; page++) {
        byNumber.push(...titles(expectSuccess(await call(`/blogs?sort=${sort}&limit=2&page=${page}`, { key: owner.key })).blogs));
      }
      expect(byNumber).toHaveLength(7);
      const byCursor: string[] = [];
      let path = `/blogs?sort=${sort}&limit=2`;
      for (;;) {
        const { blogs, pagination } = expectSuccess(await call(path, { key: owner.key }));
        byCursor.push(...titles(blogs));
        if (!pagination.nextCursor) break;
        path = `/blogs?cursor=${pagination.nextCursor}`;
      }
      expect(byCursor).toEqual(byNumber);
      if (sort === "title") expect(byNumber.map((t) => t.toLowerCase())).toEqual([...byNumber].map((t) => t.toLowerCase()).sort());
      if (sort === "-publishedAt") expect(byNumber.slice(-3).sort()).toEqual(["bravo", "delta", "golf"]);
    },
  );

  it("refuses a cursor sent with another sort", async () => {
    const { pagination } = expectSuccess(await call("/blogs?sort=title&limit=2", { key: owner.key }));
    const error = expectError(await call(`/blogs?sort=-title&cursor=${pagination.nextCursor}`, { key: owner.key }), 400, "INVALID_PARAMETER");
    expect(error.details).toContain("sort");
  });
});

describe("the public pages", () => {
  it("list an account's blogs by when they were published, not created, and show that date", async () => {
    const owner = await createTestAccount();
    const post = (body: Record<string, unknown>) => call("/blogs", { ...json("POST", body), key: owner.key });
    const early = expectSuccess(await post({ title: "Written first, published last" }), 201).blog;
    expectSuccess(await post({ title: "Written last, published first", isPublic: true }), 201);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const published = expectSuccess(await call(`/blogs/${early.id}`, { ...json("PATCH", { isPublic: true }), key: owner.key })).blog;
    const index = await (await fetch(new URL(`/${owner.handle}`, apiBaseUrl()))).text();
    expect(index.indexOf("Written first, published last")).toBeGreaterThan(-1);
    expect(index.indexOf("Written first, published last")).toBeLessThan(index.indexOf("Written last, published first"));
    const page = await (await fetch(new URL(`/${owner.handle}/${early.blogSlug}`, apiBaseUrl()))).text();
    expect(page).toContain(`"article:published_time" content="${published.publishedAt}"`);
  });
});
