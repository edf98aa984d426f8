// A blog that has ever been public keeps its old addresses when its slug changes
// (docs/public-blog.md, Moved blogs): they answer 301 to the blog's address now, in one hop
// however many times it moved, until a blog takes the slug again; never for a blog that was never
// public, a blog not public now, or a deleted one. The API's slug lookup knows only current slugs.
// The old page is read (and kept by the cache) before each change: the 301 must replace it at
// once when the server wrote the change, within a notice's delay when another process did.
import { beforeAll, describe, expect, it } from "vitest";
import { apiBaseUrl, call, createTestAccount, db, seedBlogs, type TestAccount } from "../support/api";

/** Writes by another process (plain SQL here) show once PostgreSQL's notice reaches the server. */
const OTHER_WRITERS_MS = 5_000;

let account: TestAccount;

beforeAll(async () => {
  account = await createTestAccount();
});

/** A GET (or HEAD) of a public address, redirects not followed. */
const visit = (path: string, method = "GET") => fetch(new URL(path, apiBaseUrl()), { method, redirect: "manual" });
const address = (slug: string) => `/${account.handle}/${slug}`;

async function createBlog(blogSlug: string, { isPublic = true, title = `Post ${blogSlug}` } = {}): Promise<string> {
  const created = await call("/blogs", { key: account.key, method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ title, blogSlug, isPublic }) });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.json.data.blog.id;
}

async function patchBlog(id: string, changes: Record<string, unknown>): Promise<void> {
  const updated = await call(`/blogs/${id}`, { key: account.key, method: "PATCH", headers: { "content-type": "application/json" }, body: JSON.stringify(changes) });
  expect(updated.status, JSON.stringify(updated.body)).toBe(200);
}

/** The address's answer is kept by the cache and trusted (the change listener proves itself within seconds of the server's start). */
async function isKept(path: string, status: number): Promise<void> {
  await expect.poll(async () => {
    const response = await visit(path);
    return `${response.status} ${response.headers.get("x-cache")}`;
  }, { timeout: 15_000, interval: 200 }).toBe(`${status} HIT`);
}

async function expectRedirect(from: string, to: string): Promise<void> {
  const response = await visit(from);
  expect(response.status, from).toBe(301);
  expect(response.headers.get("location"), from).toBe(to);
}

describe("a published blog's slug change", () => {
  it("answers its old address (page and share image, GET and HEAD) with 301 to the new one at once, even when the old page was kept", async () => {
    const id = await createBlog("moved-from");
    await isKept(address("moved-from"), 200);
    await isKept(`${address("moved-from")}/share-image.png`, 200);

    await patchBlog(id, { blogSlug: "moved-to" });

    await expectRedirect(address("moved-from"), address("moved-to"));
    await expectRedirect(`${address("moved-from")}/share-image.png`, `${address("moved-to")}/share-image.png`);
    const head = await visit(address("moved-from"), "HEAD");
    expect(head.status).toBe(301);
    expect(head.headers.get("location")).toBe(address("moved-to"));
    expect(await head.text()).toBe("");
    // Kept like the pages, not for good by browsers: the old slug may be used again.
    expect(head.headers.get("cache-control")).toBe("public, max-age=0, s-maxage=30, stale-while-revalidate=30");
    const moved = await visit(address("moved-to"));
    expect(moved.status).toBe(200);
    expect(await moved.text()).toContain("Post moved-from");
    // A redirect is kept like any answer: the next request needs no database.
    await isKept(address("moved-from"), 301);
  });

  it("collapses a chain: every old address answers the current one in one hop", async () => {
    const id = await createBlog("chain-a");
    await patchBlog(id, { blogSlug: "chain-b" });
    await isKept(address("chain-a"), 301);
    await patchBlog(id, { blogSlug: "chain-c" });
    await expectRedirect(address("chain-a"), address("chain-c"));
    await expectRedirect(address("chain-b"), address("chain-c"));
  });

  it("ends when another blog takes the old slug: that blog is served there", async () => {
    const first = await createBlog("reused-a");
    await patchBlog(first, { blogSlug: "reused-b" });
    await isKept(address("reused-a"), 301);
    const second = await createBlog("reused-a", { title: "Second on reused-a" });
    const taken = await visit(address("reused-a"));
    expect(taken.status).toBe(200);
    expect(await taken.text()).toContain("Second on reused-a");
    // The second one moves on: reused-a now leads to it, until the first takes its slug back.
    await patchBlog(second, { blogSlug: "reused-c" });
    await expectRedirect(address("reused-a"), address("reused-c"));
    await patchBlog(first, { blogSlug: "reused-a" });
    const back = await visit(address("reused-a"));
    expect(back.status).toBe(200);
    expect(await back.text()).toContain("Post reused-a");
    await expectRedirect(address("reused-b"), address("reused-a"));
  });

  it("ends when the blog takes its old slug back: no loop", async () => {
    const id = await createBlog("loop-a");
    await patchBlog(id, { blogSlug: "loop-b" });
    await isKept(address("loop-a"), 301);
    await patchBlog(id, { blogSlug: "loop-a" });
    expect((await visit(address("loop-a"))).status).toBe(200);
    await expectRedirect(address("loop-b"), address("loop-a"));
  });

  it("ends when a draft takes the old slug: a 404, also when another process writes it", async () => {
    const id = await createBlog("drafted-a");
    await patchBlog(id, { blogSlug: "drafted-b" });
    await isKept(address("drafted-a"), 301);
    await seedBlogs(account.id, [{ blogSlug: "drafted-a", title: "A draft" }]);
    await expect.poll(async () => (await visit(address("drafted-a"))).status, { timeout: OTHER_WRITERS_MS, interval: 20 }).toBe(404);
  });

  it("made by another process (plain SQL) shows as soon as its notice arrives", async () => {
    const id = await createBlog("sql-a");
    await isKept(address("sql-a"), 200);
    await db().blog.update({ where: { id }, data: { blogSlug: "sql-b" } });
    await expect.poll(async () => (await visit(address("sql-a"))).headers.get("location"), { timeout: OTHER_WRITERS_MS, interval: 20 }).toBe(address("sql-b"));
  });

  it("to a slug outside the API's rules (plain SQL) names it percent-encoded", async () => {
    const id = await createBlog("raw-a");
    await db().blog.update({ where: { id }, data: { blogSlug: "raw b\r\n/é" } });
    await expect.poll(async () => (await visit(address("raw-a"))).headers.get("location"), { timeout: OTHER_WRITERS_MS, interval: 20 }).toBe(address("raw%20b%0D%0A%2F%C3%A9"));
  });

  it("leaves the API's slug lookup at 404 for the old slug", async () => {
    const id = await createBlog("api-a");
    await patchBlog(id, { blogSlug: "api-b" });
    const old = await call("/blogs/slug/api-a", { key: account.key });
    expect(old.status).toBe(404);
    expect(old.json.error?.code).toBe("RESOURCE_NOT_FOUND");
    expect((await call("/blogs/slug/api-b", { key: account.key })).json.data.blog.id).toBe(id);
  });
});

describe("no redirect", () => {
  it("from the slug of a blog that was never public, published later", async () => {
    const id = await createBlog("never-a", { isPublic: false });
    await patchBlog(id, { blogSlug: "never-b" });
    await patchBlog(id, { isPublic: true });
    expect((await visit(address("never-b"))).status).toBe(200);
    expect((await visit(address("never-a"))).status).toBe(404);
  });

  it("while the blog is not public (and again once it is republished)", async () => {
    const id = await createBlog("hidden-a");
    await patchBlog(id, { blogSlug: "hidden-b" });
    await isKept(address("hidden-a"), 301);
    await patchBlog(id, { isPublic: false });
    expect((await visit(address("hidden-a"))).status).toBe(404);
    expect((await visit(address("hidden-b"))).status).toBe(404);
    // Moved while hidden: ever public, so its old address still leads to it.
    await patchBlog(id, { blogSlug: "hidden-c" });
    await patchBlog(id, { isPublic: true });
    await expectRedirect(address("hidden-a"), address("hidden-c"));
    await expectRedirect(address("hidden-b"), address("hidden-c"));
  });

  it("once the blog is deleted", async () => {
    const id = await createBlog("deleted-a");
    await patchBlog(id, { blogSlug: "deleted-b" });
    await isKept(address("deleted-a"), 301);
    expect((await call(`/blogs/${id}`, { key: account.key, method: "DELETE" })).status).toBe(200);
    expect((await visit(address("deleted-a"))).status).toBe(404);
    expect((await visit(`${address("deleted-a")}/share-image.png`)).status).toBe(404);
  });

  it("from another account's address with the same slug", async () => {
    const id = await createBlog("own-a");
    await patchBlog(id, { blogSlug: "own-b" });
    const other = await createTestAccount();
    expect((await visit(`/${other.handle}/own-a`)).status).toBe(404);
  });
});
