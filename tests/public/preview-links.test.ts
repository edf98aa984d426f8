// Preview links over HTTP (docs/api.md, preview links): the owner makes one through /api/trpc; a
// request without any cookie sees the draft through it, never indexed or kept by a shared cache;
// revoked or expired it is a plain 404; only the token's hash is stored.
import { beforeAll, describe, expect, it } from "vitest";
import { apiBaseUrl, createTestAccount, db, seedBlogs, seedImage, type TestAccount } from "../support/api";
import { signIn, trpc } from "../support/dashboard";

let owner: TestAccount;
let cookie: string;
let blogId: string;

const open = (path: string) => fetch(new URL(path, apiBaseUrl()), { redirect: "manual" });

async function makeLink(lifetime?: string): Promise<{ id: string; path: string; expiresAt: string }> {
  const answer = await trpc(cookie, "blogs.previews.create", { blogId, ...(lifetime && { lifetime }) });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.result.data;
}

beforeAll(async () => {
  owner = await createTestAccount();
  cookie = await signIn(owner);
  [blogId = ""] = await seedBlogs(owner.id, [{ title: "Draft under review", description: "Not out yet" }]);
  await db().blog.update({ where: { id: blogId }, data: { content: "# Secret draft\n\nThe body." } });
});

describe("a preview link", () => {
  it("shows the draft to a signed-out reader, with a Preview banner, noindex and no shared caching", async () => {
    const link = await makeLink();
    expect(link.path).toMatch(/^\/preview\/[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(link.expiresAt) - Date.now()).toBeGreaterThan(7 * 86_400_000 - 60_000);
    const response = await open(link.path);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("Secret draft");
    expect(html).toContain("Draft under review");
    expect(html).toContain("Preview.");
    expect(html).toMatch(/<meta name="robots" content="noindex, nofollow"/);
    expect(response.headers.get("x-robots-tag")).toBe("noindex, nofollow");
    expect(response.headers.get("cache-control")).toContain("no-store");
    expect(response.headers.get("referrer-policy")).toBe("no-referrer");
    // The public page of the draft stays a 404.
    expect((await open(`/${owner.handle}/${(await db().blog.findUniqueOrThrow({ where: { id: blogId } })).blogSlug}`)).status).toBe(404);
  });

  it("shows the blog's cover as its public page will", async () => {
    const cover = await seedImage(owner.id, { width: 300, height: 200, format: "png" });
    await db().blog.update({ where: { id: blogId }, data: { coverImageId: cover } });
    const html = await (await open((await makeLink()).path)).text();
    expect(html).toContain(`<article><picture class="cover"><img src="/images/${cover}/300x200.png" width="300" height="200" alt="" fetchPriority="high" loading="eager" decoding="async"/></picture>`);
  });

  it("is stored as a hash only, listed for the owner, and a 404 once revoked", async () => {
    const link = await makeLink("1h");
    const token = link.path.split("/").pop()!;
    const rows = await db().previewLink.findMany({ where: { blogId } });
    expect(JSON.stringify(rows)).not.toContain(token);
    const listed = (await trpc(cookie, "blogs.previews.list", { blogId })).body.result.data;
    expect(listed.map((l: { id: string }) => l.id)).toContain(link.id);
    expect(listed[0]).not.toHaveProperty("path");

    expect((await trpc(cookie, "blogs.previews.revoke", { blogId, previewId: link.id })).status).toBe(200);
    expect((await open(link.path)).status).toBe(404);
  });

  it("is a 404 once expired, and for a token it never issued", async () => {
    const link = await makeLink("1d");
    await db().previewLink.update({ where: { id: link.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await open(link.path)).status).toBe(404);
    expect((await open(`/preview/${"A".repeat(43)}`)).status).toBe(404);
    expect((await open("/preview/short")).status).toBe(404);
  });

  it("is made only by the blog's owner, never through an API key", async () => {
    const other = await createTestAccount();
    const otherCookie = await signIn(other);
    expect((await trpc(otherCookie, "blogs.previews.create", { blogId })).status).toBe(404);
    expect((await trpc(null, "blogs.previews.create", { blogId }, { headers: { "x-api-key": owner.key } })).status).toBe(401);
    const viaApi = await fetch(new URL(`/api/v1/blogs/${blogId}/previews`, apiBaseUrl()), { method: "POST", headers: { "x-api-key": owner.key } });
    expect(viaApi.status).toBe(404);
  });
});
