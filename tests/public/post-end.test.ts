// The end of a post's page over HTTP (docs/public-blog.md, The end of a post): the author box,
// the previous and next post, up to three related posts by shared tags, the subscribe form and
// the feeds; and the form's address: POST answers 303 to its page, a bad body 400, other routes
// still 405 for anything but GET and HEAD (what a post does: tests/public/subscribing.test.ts).
import { beforeAll, describe, expect, it } from "vitest";
import { apiBaseUrl, call, createTestAccount, db, getPath, seedBlogs, type TestAccount } from "../support/api";

const main = (html: string) => /<main[\s\S]*?<\/main>/.exec(html)?.[0] ?? "";
/** The pages link absolutely, under the app's origin (the address the tests reach it at). */
const origin = () => new URL(apiBaseUrl()).origin;
const section = (html: string, pattern: RegExp) => pattern.exec(html)?.[0] ?? "";
const navOf = (html: string) => section(html, /<nav aria-label="Previous and next posts"[\s\S]*?<\/nav>/);
const relatedOf = (html: string) => [...section(html, /<section aria-labelledby="related-posts"[\s\S]*?<\/section>/).matchAll(/<a href="[^"]*">([^<]*)<\/a>/g)].map((match) => match[1]);

async function html(path: string): Promise<string> {
  const response = await getPath(path);
  expect(response.status, path).toBe(200);
  return response.text();
}

/** Public blogs published a day apart, in the order given (the first the oldest). */
async function seedPublished(account: TestAccount, blogs: { slug: string; tags?: string[]; isPublic?: boolean }[], firstDay = 1) {
  await seedBlogs(account.id, blogs.map((blog) => ({ title: `Title ${blog.slug}`, blogSlug: blog.slug, isPublic: blog.isPublic ?? true, tags: blog.tags ?? [] })));
  for (const [i, blog] of blogs.entries()) {
    if (blog.isPublic === false) continue;
    await db().blog.updateMany({ where: { userId: account.id, blogSlug: blog.slug }, data: { publishedAt: new Date(Date.UTC(2026, 0, firstDay + i)) } });
  }
}

const postForm = (handle: string, body: string, headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded" }) =>
  fetch(new URL(`/${handle}/subscribe`, apiBaseUrl()), { method: "POST", body, headers, redirect: "manual" });

let account: TestAccount;
beforeAll(async () => {
  account = await createTestAccount();
  await seedPublished(account, [
    { slug: "oldest", tags: ["A", "B"] },
    { slug: "middle", tags: ["A", "B", "C"] },
    { slug: "draft", tags: ["A", "B", "C"], isPublic: false },
    { slug: "newest", tags: ["C"] },
  ]);
  await db().user.update({ where: { id: account.id }, data: { name: "Ada Lovelace" } });
});

describe("a post's page ends", () => {
  it("with its author, linking to the publication's home, the publication described, initials without a picture", async () => {
    await db().publication.upsert({ where: { userId: account.id }, create: { userId: account.id, title: "Notes", description: "On engines" }, update: {} });
    const page = main(await html(`/${account.handle}/middle`));
    const box = section(page, /<section aria-label="Author"[\s\S]*?<\/section>/);
    expect(box).toContain(`Written by <a href="${origin()}/${account.handle}">Ada Lovelace</a>`);
    expect(box).toContain("Notes — On engines");
    expect(box).toMatch(/<span aria-hidden="true" class="avatar">AL<\/span>/);

    await db().user.update({ where: { id: account.id }, data: { image: "https://images.example.test/ada.png" } });
    const withPicture = section(main(await html(`/${account.handle}/middle`)), /<section aria-label="Author"[\s\S]*?<\/section>/);
    expect(withPicture).toContain(`src="https://images.example.test/ada.png"`);
    await db().user.update({ where: { id: account.id }, data: { image: "javascript:alert(1)" } });
    expect(await html(`/${account.handle}/middle`)).not.toContain("javascript:");
  });

  it("with the previous and next public posts by publication date, absent at the ends", async () => {
    const middle = navOf(await html(`/${account.handle}/middle`));
    expect(middle).toMatch(new RegExp(`<a href="${origin()}/${account.handle}/oldest" rel="prev"[^>]*><span class="post-nav-label">← Previous post</span> <span class="post-nav-title">Title oldest</span></a>`));
    expect(middle).toMatch(new RegExp(`<a href="${origin()}/${account.handle}/newest" rel="next"[^>]*>.*Next post →.*Title newest`));
    const oldest = navOf(await html(`/${account.handle}/oldest`));
    expect(oldest).not.toContain("Previous post");
    expect(oldest).toContain("Title middle");
    const newest = navOf(await html(`/${account.handle}/newest`));
    expect(newest).not.toContain("Next post");
    expect(newest).toContain("Title middle");
  });

  it("orders posts published at the same moment by id", async () => {
    const other = await createTestAccount();
    await seedBlogs(other.id, [
      { title: "Same A", blogSlug: "same-a", isPublic: true },
      { title: "Same B", blogSlug: "same-b", isPublic: true },
    ]);
    const moment = new Date(Date.UTC(2026, 1, 1));
    await db().blog.updateMany({ where: { userId: other.id }, data: { publishedAt: moment } });
    const [first, second] = (await db().blog.findMany({ where: { userId: other.id }, orderBy: { id: "asc" }, select: { blogSlug: true } })).map((blog) => blog.blogSlug);
    expect(navOf(await html(`/${other.handle}/${first}`))).toMatch(new RegExp(`href="${origin()}/${other.handle}/${second}" rel="next"`));
    expect(navOf(await html(`/${other.handle}/${second}`))).toMatch(new RegExp(`href="${origin()}/${other.handle}/${first}" rel="prev"`));
  });

  it("with up to three related posts: most shared tags first, then newest; never itself, drafts or another owner's", async () => {
    const owner = await createTestAccount();
    await seedPublished(owner, [
      { slug: "post", tags: ["Rust", "Wasm", "Web"] },
      { slug: "one-old", tags: ["Web"] },
      { slug: "two", tags: ["Rust", "Web"] },
      { slug: "one-new", tags: ["Wasm"] },
      { slug: "three", tags: ["Web", "Wasm", "Rust"] },
      { slug: "none", tags: ["Go"] },
      { slug: "hidden", tags: ["Rust", "Wasm", "Web"], isPublic: false },
    ]);
    const stranger = await createTestAccount();
    await seedPublished(stranger, [{ slug: "elsewhere", tags: ["Rust", "Wasm", "Web"] }], 20);
    expect(relatedOf(await html(`/${owner.handle}/post`))).toEqual(["Title three", "Title two", "Title one-new"]);
    expect(relatedOf(await html(`/${owner.handle}/none`))).toEqual([]);
    expect(await html(`/${owner.handle}/none`)).not.toContain("Related posts");
  });

  it("with the subscribe form, posting to the publication's address, and the feeds in its footer; and no script", async () => {
    const page = await html(`/${account.handle}/middle`);
    const form = section(page, /<form action="[^"]*\/subscribe"[\s\S]*?<\/form>/);
    expect(form).toMatch(new RegExp(`^<form action="${origin()}/${account.handle}/subscribe" method="post">`));
    expect(form).toMatch(/<label for="subscribe-email">Email address<\/label>/);
    const input = /<input [^>]*>/.exec(form)?.[0] ?? "";
    for (const attribute of ['id="subscribe-email"', 'type="email"', 'name="email"', 'required=""']) expect(input).toContain(attribute);
    expect(form).toContain(`<button type="submit">Subscribe</button>`);
    for (const file of ["feed.xml", "atom.xml", "feed.json"]) expect(page).toContain(`href="${origin()}/${account.handle}/${file}"`);
    expect(page).not.toMatch(/<script(?![^>]*application\/ld\+json)/);
    // The index ends with the form too.
    expect(await html(`/${account.handle}`)).toContain(`<form action="${origin()}/${account.handle}/subscribe" method="post">`);
  });

  it("shows a newer post as Next at the very next request after it is published (the cached page is remade)", async () => {
    const owner = await createTestAccount();
    await seedPublished(owner, [{ slug: "first", tags: ["x"] }]);
    for (let i = 0; i < 2; i++) expect(navOf(await html(`/${owner.handle}/first`))).toBe("");
    const created = await call("/blogs", { key: owner.key, method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ title: "Brand new", isPublic: true, tags: ["x"] }) });
    expect(created.status).toBe(201);
    const page = await html(`/${owner.handle}/first`);
    expect(navOf(page)).toMatch(new RegExp(`href="${origin()}/${owner.handle}/${created.json.data.blog.blogSlug}" rel="next"[^>]*>.*Brand new`));
    expect(relatedOf(page)).toEqual(["Brand new"]);

    const renamed = await call(`/blogs/${created.json.data.blog.id}`, { key: owner.key, method: "PATCH", headers: { "content-type": "application/json" }, body: JSON.stringify({ title: "Retitled" }) });
    expect(renamed.status).toBe(200);
    expect(navOf(await html(`/${owner.handle}/first`))).toContain("Retitled");
    const hidden = await call(`/blogs/${created.json.data.blog.id}`, { key: owner.key, method: "PATCH", headers: { "content-type": "application/json" }, body: JSON.stringify({ isPublic: false }) });
    expect(hidden.status).toBe(200);
    expect(navOf(await html(`/${owner.handle}/first`))).toBe("");
  });
});

describe("the subscribe form's address", () => {
  it("answers a valid post 303 to its page, which says to check the inbox", async () => {
    for (const email of ["reader@example.com", "someone.else@example.org"]) {
      const response = await postForm(account.handle, new URLSearchParams({ email }).toString());
      expect(response.status).toBe(303);
      expect(response.headers.get("location")).toBe(`/${account.handle}/subscribe`);
      expect(response.headers.get("cache-control")).toBe("no-store");
    }
    const page = await getPath(`/${account.handle}/subscribe`);
    expect(page.status).toBe(200);
    const text = await page.text();
    expect(main(text)).toContain("Check your inbox");
    expect(text).toContain(`<meta name="robots" content="noindex, nofollow"/>`);
    expect(text).not.toContain("reader@example.com");
    expect(page.headers.get("content-security-policy")).toContain("form-action 'self'");
  });

  it("answers 400 with a page for a bad, foreign or oversize body", async () => {
    const bodies: [string, Record<string, string>?][] = [
      ["email=not-an-address"],
      [""],
      ["email=a%40example.com&email=b%40example.com"],
      [`email=${"a".repeat(5000)}%40example.com`],
      ["email=%FF%40example.com"],
      [JSON.stringify({ email: "a@example.com" }), { "content-type": "application/json" }],
    ];
    for (const [body, headers] of bodies) {
      const response = await postForm(account.handle, body, headers);
      expect(response.status, body.slice(0, 40)).toBe(400);
      expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(main(await response.text())).toContain(`<a href="/${account.handle}">Go back</a>`);
    }
  });

  it("is 404 for an unknown handle, and the form of a publication with no post yet", async () => {
    expect((await postForm("no-such-handle-here", "email=a%40example.com")).status).toBe(404);
    expect((await getPath("/no-such-handle-here/subscribe")).status).toBe(404);
    const empty = await createTestAccount();
    expect((await postForm(empty.handle, "email=a%40example.com")).status).toBe(303);
    expect((await getPath(`/${empty.handle}/subscribe`)).status).toBe(200);
  });

  it("allows GET, HEAD and POST there; every other public address still answers 405 to POST", async () => {
    const put = await fetch(new URL(`/${account.handle}/subscribe`, apiBaseUrl()), { method: "PUT", body: "email=a%40example.com" });
    expect(put.status).toBe(405);
    expect(put.headers.get("allow")).toBe("GET, HEAD, POST");
    for (const path of [`/${account.handle}`, `/${account.handle}/middle`, `/${account.handle}/feed.xml`]) {
      const response = await fetch(new URL(path, apiBaseUrl()), { method: "POST", body: "email=a%40example.com", headers: { "content-type": "application/x-www-form-urlencoded" } });
      expect(response.status, path).toBe(405);
      expect(response.headers.get("allow")).toBe("GET, HEAD");
    }
  });
});
