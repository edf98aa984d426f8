// Public search over HTTP (docs/public-blog.md, Search): /{handle}/search?q= lists the owner's
// public blogs whose title, tags, description or content have the query's words, newest first, 10
// a page, each with a snippet whose matching words are marked; never a draft, a scheduled blog or
// another owner's; a search box on every owner's page; a change shows on the next search.
import { beforeAll, describe, expect, it } from "vitest";
import { apiBaseUrl, createTestAccount, db, getPath, seedBlogs, type TestAccount } from "../support/api";

/** The pages link absolutely, under the app's origin (the address the tests reach it at). */
const origin = () => new URL(apiBaseUrl()).origin;

const main = (html: string) => /<main[\s\S]*?<\/main>/.exec(html)?.[0] ?? "";
const titlesOn = (html: string) => [...main(html).matchAll(/<h2[^>]*><a[^>]*>([^<]*)<\/a><\/h2>/g)].map((match) => match[1]);
const search = (handle: string, query: string) => getPath(`/${handle}/search?${query}`);

let account: TestAccount;
let other: TestAccount;

beforeAll(async () => {
  account = await createTestAccount();
  other = await createTestAccount();
  await seedBlogs(account.id, [
    { title: "Aardvark sightings", blogSlug: "in-title", isPublic: true },
    { title: "Second", blogSlug: "in-description", description: "An aardvark at dusk", isPublic: true },
    { title: "Third", blogSlug: "in-content", content: "We saw **an aardvark** digging.\n\n<script>alert(1)</script> aardvark <b>bold</b>", isPublic: true },
    { title: "Fourth", blogSlug: "in-tags", tags: ["Aardvarks"], isPublic: true },
    { title: "Aardvark draft", blogSlug: "draft", isPublic: false },
    { title: "Aardvark scheduled", blogSlug: "scheduled", isPublic: false },
    ...Array.from({ length: 12 }, (_, i) => ({ title: `Numbat ${i}`, blogSlug: `numbat-${i}`, content: "A numbat eats termites.", isPublic: true })),
  ]);
  await seedBlogs(other.id, [{ title: "Aardvark elsewhere", blogSlug: "elsewhere", isPublic: true }]);
  await db().blog.updateMany({ where: { userId: account.id, blogSlug: "scheduled" }, data: { publishAt: new Date(Date.now() + 86_400_000) } });
  const published = ["in-title", "in-description", "in-content", "in-tags", ...Array.from({ length: 12 }, (_, i) => `numbat-${i}`)];
  for (const [i, blogSlug] of published.entries()) {
    await db().blog.updateMany({ where: { userId: account.id, blogSlug }, data: { publishedAt: new Date(Date.UTC(2026, 0, 1 + i)) } });
  }
}, 60_000);

describe("a search", () => {
  it("finds the words in the title, the description, the content and the tags, newest first, as word beginnings ignoring case", async () => {
    const answer = await search(account.handle, "q=AARDVARK");
    expect(answer.status).toBe(200);
    const html = await answer.text();
    expect(titlesOn(html)).toEqual(["Fourth", "Third", "Second", "Aardvark sightings"]);
    expect(html).not.toContain("Aardvark draft");
    expect(html).not.toContain("Aardvark scheduled");
    expect(html).not.toContain("Aardvark elsewhere");
    expect(html).toContain("<title>Search: AARDVARK – ");
    expect(html).toContain('<meta name="robots" content="noindex"/>');
    expect(titlesOn(await (await search(account.handle, "q=aard")).text())).toHaveLength(4);
  });

  it("needs every word", async () => {
    expect(titlesOn(await (await search(account.handle, "q=aardvark+dusk")).text())).toEqual(["Second"]);
    const none = await (await search(account.handle, "q=aardvark+numbat")).text();
    expect(titlesOn(none)).toEqual([]);
    expect(main(none)).toContain("No post matches");
  });

  it("marks the matching words in a snippet, the blog's text escaped", async () => {
    const html = main(await (await search(account.handle, "q=aardvark")).text());
    expect(html).toContain("<mark>aardvark</mark>");
    expect(html).toContain("We saw an <mark>aardvark</mark> digging.");
    expect(html).not.toContain("<script");
    expect(html).not.toContain("<b>");
    expect(html).toContain("&lt;script alert(1)&lt;/script <mark>aardvark</mark> &lt;b bold");
    expect(html).toContain("An <mark>aardvark</mark> at dusk");
  });

  it("answers 10 a page, then the rest on page 2, and 404 past the last page or for a bad page", async () => {
    const first = await (await search(account.handle, "q=numbat")).text();
    expect(titlesOn(first)).toEqual(Array.from({ length: 10 }, (_, i) => `Numbat ${11 - i}`));
    expect(first).toContain(`href="${origin()}/${account.handle}/search?q=numbat&amp;page=2"`);
    const second = await (await search(account.handle, "q=numbat&page=2")).text();
    expect(titlesOn(second)).toEqual(["Numbat 1", "Numbat 0"]);
    expect(second).toContain(`href="${origin()}/${account.handle}/search?q=numbat"`);
    expect(second).toContain("<title>Search: numbat, page 2 – ");
    for (const page of ["3", "0", "x", "1&page=2"]) expect((await search(account.handle, `q=numbat&page=${page}`)).status).toBe(404);
  });

  it("shows the search box alone without a query; finds nothing in a publication with no post yet; is 404 for an unknown handle", async () => {
    for (const query of ["", "q=", "q=++"]) {
      const html = await (await search(account.handle, query)).text();
      expect(titlesOn(html)).toEqual([]);
      expect(html).toMatch(/<input id="search-q" type="search"[^>]* name="q" value=""\/>/);
    }
    const nobody = await createTestAccount();
    const empty = await search(nobody.handle, "q=aardvark");
    expect(empty.status).toBe(200);
    expect(main(await empty.text())).toContain("No post matches");
    expect((await search("no-such-handle-here", "q=aardvark")).status).toBe(404);
  });

  it("answers 400 to a query over 200 characters as sent, and takes 200", async () => {
    const long = await search(account.handle, `q=${"a".repeat(201)}`);
    expect(long.status).toBe(400);
    expect(await long.text()).toContain("A search is at most 200 characters");
    expect((await search(account.handle, `q=${"a".repeat(200)}`)).status).toBe(200);
  });

  it("is a page without script whose form the page's policy lets send", async () => {
    const answer = await search(account.handle, "q=aardvark");
    const html = await answer.text();
    expect(html).not.toMatch(/<script(?![^>]*application\/ld\+json)/);
    expect(answer.headers.get("content-security-policy")).toContain("form-action 'self'");
  });

  it("shows a blog published since the last search at the next one", async () => {
    expect(titlesOn(await (await search(account.handle, "q=pangolin")).text())).toEqual([]);
    // Written as plain SQL would be (no process is told): the account's content version moves.
    await seedBlogs(account.id, [{ title: "Pangolin", blogSlug: "pangolin" }]);
    await db().blog.updateMany({ where: { userId: account.id, blogSlug: "pangolin" }, data: { isPublic: true } });
    const answer = await search(account.handle, "q=pangolin");
    expect(answer.headers.get("x-cache")).toBe("MISS");
    expect(titlesOn(await answer.text())).toEqual(["Pangolin"]);
    const again = await search(account.handle, "q=pangolin");
    expect(again.headers.get("x-cache")).toBe("REVALIDATED");
  });
});

describe("the search box", () => {
  it("is on the owner's index, tag pages and blogs: a GET form to the search, labelled", async () => {
    for (const path of [`/${account.handle}`, `/${account.handle}/tags/aardvarks`, `/${account.handle}/in-content`]) {
      const html = await (await getPath(path)).text();
      expect(html).toContain(`<form role="search" class="search" action="${origin()}/${account.handle}/search" method="get"><label for="search-q">Search posts</label>`);
    }
  });
});
