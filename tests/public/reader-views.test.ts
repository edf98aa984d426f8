// Readers' views over HTTP (docs/public-blog.md, Views): which public answers count, per post and
// per referrer host, and GET /api/v1/views. A views read writes the server's pending batch first,
// so each read here sees every view the server answered before it.
import { beforeAll, describe, expect, it } from "vitest";
import { apiBaseUrl, call, createTestAccount, createTestKey, seedBlogs, type TestAccount } from "../support/api";
import { signIn, trpc } from "../support/dashboard";
import { servedDocument } from "../support/served-document";
import { expectError, expectSuccess } from "../api/expect";

const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

interface Views {
  from: string;
  to: string;
  total: number;
  daily: { date: string; views: number }[];
  blogs: { id: string; blogSlug: string; title: string; views: number }[];
  referrers: { host: string | null; views: number }[];
}

/** A public address as a reader's browser asks for it (unless `headers` say otherwise). */
const visit = (path: string, headers: Record<string, string> = {}, method = "GET") =>
  fetch(new URL(path, apiBaseUrl()), { method, redirect: "manual", headers: { "user-agent": BROWSER, ...headers } });

async function views(account: TestAccount, query = ""): Promise<Views> {
  const response = await call(`/views${query}`, { key: account.key });
  const data = expectSuccess(response) as Views;
  expect(Object.keys(data).sort()).toEqual(["blogs", "daily", "from", "referrers", "to", "total"]);
  expect(data.daily.reduce((sum, day) => sum + day.views, 0)).toBe(data.total);
  expect(data.referrers.reduce((sum, referrer) => sum + referrer.views, 0)).toBe(data.total);
  return data;
}

async function createPublicBlog(account: TestAccount, fields: Record<string, unknown>): Promise<{ id: string; blogSlug: string }> {
  const created = await call("/blogs", { key: account.key, method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ isPublic: true, ...fields }) });
  expect(created.status).toBe(201);
  return created.json.data.blog;
}

let owner: TestAccount;
let first: { id: string; blogSlug: string };
let second: { id: string; blogSlug: string };

beforeAll(async () => {
  owner = await createTestAccount();
  first = await createPublicBlog(owner, { title: "First post", content: "One", tags: ["news"] });
  second = await createPublicBlog(owner, { title: "Second post", content: "Two" });
}, 60_000);

describe("a reader's view", () => {
  it("counts GETs answered 200 or 304 to a browser, cache hits included, per post and in the total", async () => {
    const before = await views(owner);
    const post = `/${owner.handle}/${first.blogSlug}`;
    const fresh = await visit(post);
    expect(fresh.status).toBe(200);
    const hit = await visit(post);
    expect([hit.status, hit.headers.get("x-cache")]).toEqual([200, "HIT"]);
    const revalidated = await visit(post, { "if-none-match": hit.headers.get("etag")! });
    expect(revalidated.status).toBe(304);
    expect((await visit(`/${owner.handle}/${second.blogSlug}`)).status).toBe(200);
    // Pages that list posts count in the total, under no post.
    expect((await visit(`/${owner.handle}`)).status).toBe(200);
    expect((await visit(`/${owner.handle}/tags/news`)).status).toBe(200);

    const after = await views(owner);
    expect(after.total - before.total).toBe(6);
    const viewsOf = (data: Views, id: string) => data.blogs.find((blog) => blog.id === id)?.views ?? 0;
    expect(viewsOf(after, first.id) - viewsOf(before, first.id)).toBe(3);
    expect(viewsOf(after, second.id) - viewsOf(before, second.id)).toBe(1);
    const today = new Date().toISOString().slice(0, 10);
    expect(after.daily.at(-1)!.date).toBe(today);
  });

  it("does not count bots, scripts, HEAD, previews, feeds, sitemaps, share images, redirects or 404s", async () => {
    const reader = await createTestAccount();
    const blog = await createPublicBlog(reader, { title: "Not counted", content: "Body" });
    const [draftId = ""] = await seedBlogs(reader.id, [{ title: "Draft" }]);
    const cookie = await signIn(reader);
    const preview = await trpc(cookie, "blogs.previews.create", { blogId: draftId });
    expect(preview.status).toBe(200);
    const post = `/${reader.handle}/${blog.blogSlug}`;

    expect((await visit(post, { "user-agent": GOOGLEBOT })).status).toBe(200);
    expect((await visit(post, { "user-agent": "curl/8.5.0" })).status).toBe(200);
    expect((await visit(post, { "user-agent": "" })).status).toBe(200);
    expect((await visit(post, {}, "HEAD")).status).toBe(200);
    expect((await visit(preview.body.result.data.path)).status).toBe(200);
    for (const path of [`/${reader.handle}/feed.xml`, `/${reader.handle}/atom.xml`, `/${reader.handle}/sitemap.xml`, `${post}/share-image.png`]) {
      expect((await visit(path)).status, path).toBe(200);
    }
    expect((await visit(`/${reader.handle}/no-such-post`)).status).toBe(404);
    expect((await visit(`/${reader.handle}?page=9`)).status).toBe(404);
    const moved = await call(`/blogs/${blog.id}`, { key: reader.key, method: "PATCH", headers: { "content-type": "application/json" }, body: JSON.stringify({ blogSlug: "moved-away" }) });
    expect(moved.status).toBe(200);
    expect((await visit(post)).status).toBe(301);

    expect(await views(reader)).toMatchObject({ total: 0, blogs: [], referrers: [] });
  });
});

describe("referrers", () => {
  it("group views by the Referer's host; none, the site's own pages and unreadable ones are null", async () => {
    const reader = await createTestAccount();
    const blog = await createPublicBlog(reader, { title: "Shared", content: "Body" });
    const post = `/${reader.handle}/${blog.blogSlug}`;
    const own = new URL(`/${reader.handle}`, apiBaseUrl()).href;
    for (const referer of ["https://news.example.com/a", "https://News.Example.com/b?q=1", "https://news.example.com/c", "http://search.example:8443/", "https://search.example:8443/x", "https://social.example/"]) {
      expect((await visit(post, { referer })).status).toBe(200);
    }
    for (const headers of [{}, { referer: own }, { referer: "not a url" }] as Record<string, string>[]) expect((await visit(post, headers)).status).toBe(200);

    const data = await views(reader);
    expect(data.total).toBe(9);
    // Most views first, ties by host: none ("" as stored) before any.
    expect(data.referrers).toEqual([
      { host: null, views: 3 },
      { host: "news.example.com", views: 3 },
      { host: "search.example:8443", views: 2 },
      { host: "social.example", views: 1 },
    ]);
    expect(data.blogs).toEqual([{ id: blog.id, blogSlug: blog.blogSlug, title: "Shared", views: 9 }]);
  });
});

describe("GET /api/v1/views", () => {
  it("answers the documented shape, most viewed first, for the caller's account only", async () => {
    const reader = await createTestAccount();
    const other = await createTestAccount();
    const quiet = await createPublicBlog(reader, { title: "Quiet", content: "Body" });
    const popular = await createPublicBlog(reader, { title: "Popular", content: "Body" });
    const elsewhere = await createPublicBlog(other, { title: "Elsewhere", content: "Body" });
    await visit(`/${reader.handle}/${quiet.blogSlug}`);
    for (let i = 0; i < 3; i++) await visit(`/${reader.handle}/${popular.blogSlug}`);
    await visit(`/${other.handle}/${elsewhere.blogSlug}`);

    const response = await call("/views", { key: reader.key });
    const served = await servedDocument("views");
    const check = served.validateResponse("GET", "/views", 200, response.body);
    expect(check.valid, check.errors).toBe(true);
    const data = await views(reader);
    expect(data.total).toBe(4);
    expect(data.blogs.map((blog) => [blog.title, blog.views])).toEqual([
      ["Popular", 3],
      ["Quiet", 1],
    ]);
    expect(data.daily).toHaveLength(30);
    expect((await views(other)).blogs).toEqual([{ id: elsewhere.id, blogSlug: elsewhere.blogSlug, title: "Elsewhere", views: 1 }]);
  });

  it("takes from and to as GET /analytics does", async () => {
    const reader = await createTestAccount();
    const data = await views(reader, "?from=2026-01-01&to=2026-01-03");
    expect(data).toEqual({
      from: "2026-01-01",
      to: "2026-01-03",
      total: 0,
      daily: ["2026-01-01", "2026-01-02", "2026-01-03"].map((date) => ({ date, views: 0 })),
      blogs: [],
      referrers: [],
    });
    expectError(await call("/views?from=2025-02-30", { key: reader.key }), 400, "INVALID_PARAMETER");
    expectError(await call("/views?to=yesterday", { key: reader.key }), 400, "INVALID_PARAMETER");
    expectError(await call("/views?from=2026-01-05&to=2026-01-01", { key: reader.key }), 400, "INVALID_PARAMETER");
    expectError(await call("/views?from=2024-01-01&to=2026-01-01", { key: reader.key }), 400, "INVALID_PARAMETER");
  });

  it("needs read:analytics", async () => {
    const reader = await createTestAccount();
    const blogsOnly = await createTestKey(reader.id, { name: "Blogs only", permissions: ["read:blogs"] });
    expectError(await call("/views", { key: blogsOnly }), 403, "INSUFFICIENT_PERMISSIONS");
    const analyst = await createTestKey(reader.id, { name: "Analyst", permissions: ["read:analytics"] });
    expectSuccess(await call("/views", { key: analyst }));
    expectError(await call("/views"), 401, "MISSING_API_KEY");
  });
});
