// Authors on the public blog over HTTP (docs/public-blog.md, Authors): a post's page names its
// authors (primary first) with their picture and bio, each linking to their author page;
// /{handle}/authors/{authorSlug} lists that person's public posts in the publication, 20 a page,
// with its RSS, Atom and JSON feeds holding only those; 404 for anyone who authors no public post
// there; author pages in the sitemap of a publication with several authors; and a change of a
// person's bio or name (through better-auth's update-user, checked there) shows at once.
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import Parser from "rss-parser";
import { validateXML } from "xmllint-wasm";
import { beforeAll, describe, expect, it } from "vitest";
import { apiBaseUrl, createTestAccount, db, getPath, seedBlogs, type TestAccount } from "../support/api";
import { authPost, signIn } from "../support/dashboard";

const URLSET_SCHEMA = fileURLToPath(new URL("../../node_modules/sitemap/schema/sitemap.xsd", import.meta.url));

const main = (html: string) => /<main[\s\S]*?<\/main>/.exec(html)?.[0] ?? "";
const cardTitles = (html: string) => [...main(html).matchAll(/<h2[^>]*><a[^>]*>([^<]*)<\/a><\/h2>/g)].map((match) => match[1]);
const jsonLd = (html: string) => JSON.parse(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)![1]!);
const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((match) => match[1]);

async function html(path: string): Promise<string> {
  const response = await getPath(path);
  expect(response.status, path).toBe(200);
  return response.text();
}

let origin: string;
/** The publication, founded by Ada. */
let publication: TestAccount;
/** Grace: a member of the publication who writes there, and in her own. */
let grace: TestAccount;
/** Someone who writes only in their own publication, and a draft in Ada's. */
let stranger: TestAccount;
const home = () => `${origin}/${publication.handle}`;
const authorPage = (person: TestAccount) => `${home()}/authors/${person.handle}`;

/** Public blogs of `account` by `authors`, published a day apart from `firstDay` in the order given. */
async function seedPublished(account: TestAccount, authors: string[], blogs: { slug: string; isPublic?: boolean }[], firstDay: number) {
  const ids = await seedBlogs(account.id, blogs.map((blog) => ({ title: `Title ${blog.slug}`, blogSlug: blog.slug, isPublic: blog.isPublic ?? true })));
  for (const [i, id] of ids.entries()) {
    await db().blog.update({ where: { id }, data: { authors, ...(blogs[i]!.isPublic !== false && { publishedAt: new Date(Date.UTC(2026, 0, firstDay + i)) }) } });
  }
}

beforeAll(async () => {
  origin = new URL(apiBaseUrl()).origin;
  [publication, grace, stranger] = await Promise.all([createTestAccount(), createTestAccount(), createTestAccount()]);
  await db().user.update({ where: { id: publication.id }, data: { name: "Ada Lovelace" } });
  await db().user.update({ where: { id: grace.id }, data: { name: "Grace Hopper", bio: "Wrote the first compiler.\nRear admiral.", image: "https://images.example.test/grace.png" } });
  await db().member.create({ data: { id: `m${crypto.randomUUID().replaceAll("-", "")}`, organizationId: publication.id, userId: grace.id, role: "author" } });
  // Ada's own post, then 20 of Grace's, then one they wrote together (Grace first), the newest.
  await seedPublished(publication, [publication.id], [{ slug: "by-ada" }], 1);
  await seedPublished(publication, [grace.id], Array.from({ length: 20 }, (_, i) => ({ slug: `by-grace-${i}` })), 2);
  await seedPublished(publication, [grace.id, publication.id], [{ slug: "together" }], 25);
  await seedPublished(publication, [grace.id], [{ slug: "grace-draft", isPublic: false }], 26);
  await seedPublished(publication, [stranger.id], [{ slug: "stranger-draft", isPublic: false }], 26);
  // Elsewhere: Grace's and the stranger's own publications.
  await seedPublished(grace, [grace.id], [{ slug: "grace-elsewhere" }], 1);
  await seedPublished(stranger, [stranger.id], [{ slug: "stranger-elsewhere" }], 1);
});

describe("a post's page", () => {
  it("names its authors, primary first, each linking to their author page, with picture and bio", async () => {
    const page = await html(`/${publication.handle}/together`);
    expect(page).toContain(`By <a href="${authorPage(grace)}">Grace Hopper</a> and <a href="${authorPage(publication)}">Ada Lovelace</a> ·`);
    const box = /<section aria-labelledby="post-authors"[\s\S]*?<\/section>/.exec(main(page))?.[0] ?? "";
    expect(box).toContain(">Written by</h2>");
    const entries = [...box.matchAll(/<li class="author-box">([\s\S]*?)<\/li>/g)].map((match) => match[1]!);
    expect(entries).toHaveLength(2);
    expect(entries[0]).toContain(`<img class="avatar" src="https://images.example.test/grace.png" alt=""`);
    expect(entries[0]).toContain(`<a href="${authorPage(grace)}">Grace Hopper</a>`);
    expect(entries[0]).toContain(`<p class="bio">Wrote the first compiler.\nRear admiral.</p>`);
    expect(entries[1]).toContain(`<span aria-hidden="true" class="avatar">AL</span>`);
    expect(entries[1]).toContain(`<a href="${authorPage(publication)}">Ada Lovelace</a>`);
    expect(jsonLd(page).author).toEqual([
      { "@type": "Person", name: "Grace Hopper", url: authorPage(grace) },
      { "@type": "Person", name: "Ada Lovelace", url: authorPage(publication) },
    ]);
    expect(page).toContain(`<meta property="article:author" content="Grace Hopper"/>`);
  });

  it("of one author other than the founder: that author, linking to their page", async () => {
    const page = main(await html(`/${publication.handle}/by-grace-3`));
    const box = /<section aria-label="Author"[\s\S]*?<\/section>/.exec(page)?.[0] ?? "";
    expect(box).toContain(`Written by <a href="${authorPage(grace)}">Grace Hopper</a>`);
    expect(box).toContain("Rear admiral.");
    expect(page).toContain(`By <a href="${authorPage(grace)}">Grace Hopper</a> ·`);
  });

  it("of the founder alone: as before authors, linking to the publication's home", async () => {
    const page = await html(`/${publication.handle}/by-ada`);
    expect(main(page)).toContain(`Written by <a href="${home()}">Ada Lovelace</a>`);
    expect(main(page)).toContain(`By <a href="${home()}">Ada Lovelace</a> ·`);
    expect(jsonLd(page).author).toEqual({ "@type": "Person", name: "Ada Lovelace", url: home() });
  });
});

describe("an author's page", () => {
  it("shows their name, picture and bio, and their public posts in the publication, newest first, 20 a page", async () => {
    const first = await html(`/${publication.handle}/authors/${grace.handle}`);
    expect(first).toContain(`<title>Grace Hopper – `);
    expect(first).toContain(`<link rel="canonical" href="${authorPage(grace)}"/>`);
    expect(main(first)).toContain(">Grace Hopper</h1>");
    expect(main(first)).toContain(`<p class="lede bio">Wrote the first compiler.\nRear admiral.</p>`);
    expect(main(first)).toContain(`src="https://images.example.test/grace.png"`);
    expect(cardTitles(first)).toEqual(["Title together", ...Array.from({ length: 19 }, (_, i) => `Title by-grace-${19 - i}`)]);
    expect(first).toContain(`href="${authorPage(grace)}?page=2"`);
    const second = await html(`/${publication.handle}/authors/${grace.handle}?page=2`);
    expect(cardTitles(second)).toEqual(["Title by-grace-0"]);
    expect(second).toContain(`<link rel="canonical" href="${authorPage(grace)}?page=2"/>`);
    for (const page of [first, second]) {
      for (const absent of ["grace-draft", "grace-elsewhere", "by-ada"]) expect(page).not.toContain(absent);
    }
    expect(jsonLd(first)).toMatchObject({
      "@type": "ProfilePage",
      mainEntity: { "@type": "Person", name: "Grace Hopper", url: authorPage(grace), description: "Wrote the first compiler.\nRear admiral.", image: "https://images.example.test/grace.png" },
    });
  });

  it("exists for the founder too, with only their posts", async () => {
    expect(cardTitles(await html(`/${publication.handle}/authors/${publication.handle}`))).toEqual(["Title together", "Title by-ada"]);
  });

  it("links its feeds, which hold only that author's public posts of the publication", async () => {
    const page = await html(`/${publication.handle}/authors/${grace.handle}`);
    expect(page).toContain(`<link rel="alternate" type="application/rss+xml" href="${authorPage(grace)}/feed.xml" title="Grace Hopper – `);
    expect(page).toContain(`<link rel="alternate" type="application/atom+xml" href="${authorPage(grace)}/atom.xml"`);
    expect(page).toContain(`<link rel="alternate" type="application/feed+json" href="${authorPage(grace)}/feed.json"`);
    const expected = ["Title together", ...Array.from({ length: 19 }, (_, i) => `Title by-grace-${19 - i}`)];
    for (const file of ["feed.xml", "atom.xml"]) {
      const response = await getPath(`/${publication.handle}/authors/${grace.handle}/${file}`);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe(file === "feed.xml" ? "application/rss+xml; charset=utf-8" : "application/atom+xml; charset=utf-8");
      const xml = await response.text();
      const { valid, errors } = await validateXML({ xml: { fileName: file, contents: xml }, normalization: "format" });
      expect(errors).toEqual([]);
      expect(valid).toBe(true);
      const feed = await new Parser().parseString(xml);
      expect(feed.title).toMatch(/^Grace Hopper – /);
      expect(feed.link).toBe(authorPage(grace));
      expect(feed.items.map((item) => item.title)).toEqual(expected);
    }
    const json = (await (await getPath(`/${publication.handle}/authors/${grace.handle}/feed.json`)).json()) as {
      version: string;
      home_page_url: string;
      authors: { name: string; url: string }[];
      items: { title: string; url: string; authors: { name: string; url: string }[] }[];
    };
    expect(json.version).toBe("https://jsonfeed.org/version/1.1");
    expect(json.home_page_url).toBe(authorPage(grace));
    expect(json.authors).toEqual([{ name: "Grace Hopper", url: authorPage(grace) }]);
    expect(json.items.map((item) => item.title)).toEqual(expected);
    expect(json.items[0]).toMatchObject({
      url: `${home()}/together`,
      authors: [
        { name: "Grace Hopper", url: authorPage(grace) },
        { name: "Ada Lovelace", url: authorPage(publication) },
      ],
    });
    expect(json.items[1]!.authors).toEqual([{ name: "Grace Hopper", url: authorPage(grace) }]);
  });

  it("is a 404, with its feeds, for anyone who authors no public post of the publication, and for what is no page", async () => {
    const paths = [
      `authors/${stranger.handle}`, // a draft only here, public posts elsewhere
      `authors/${stranger.handle}/feed.xml`,
      "authors/nobody-by-that-name",
      "authors/nobody-by-that-name/atom.xml",
      "authors/Not_A_Handle",
      `authors/${grace.handle}?page=3`,
      `authors/${grace.handle}?page=0`,
      `authors/${grace.handle}/rss.xml`,
      `authors/${grace.handle}/feed.xml/more`,
    ];
    for (const path of paths) expect((await getPath(`/${publication.handle}/${path}`)).status, path).toBe(404);
    // Grace's own publication: her page there lists her post there only.
    expect(cardTitles(await html(`/${grace.handle}/authors/${grace.handle}`))).toEqual(["Title grace-elsewhere"]);
    // The publication's 404 page, with its home.
    const notFound = await getPath(`/${publication.handle}/authors/${stranger.handle}`);
    expect(await notFound.text()).toContain(`<a href="${home()}">`);
  });

  it("leaves a blog slugged `authors` its page", async () => {
    await seedPublished(stranger, [stranger.id], [{ slug: "authors" }], 2);
    expect(await html(`/${stranger.handle}/authors`)).toContain(">Title authors</h1>");
  });
});

describe("the sitemap", () => {
  it("lists each author's page of a publication with several authors, and stays valid", async () => {
    const xml = await (await getPath(`/${publication.handle}/sitemap.xml`)).text();
    const { valid, errors } = await validateXML({ xml: { fileName: "sitemap.xml", contents: xml }, schema: { fileName: "schema.xsd", contents: await readFile(URLSET_SCHEMA, "utf8") } });
    expect(errors).toEqual([]);
    expect(valid).toBe(true);
    expect(locs(xml).filter((loc) => loc!.includes("/authors/")).sort()).toEqual([authorPage(grace), authorPage(publication)].sort());
    expect(xml).not.toContain(stranger.handle);
  });

  it("lists none while one person wrote every public post: their page would repeat the home", async () => {
    const xml = await (await getPath(`/${grace.handle}/sitemap.xml`)).text();
    expect(locs(xml)).toEqual([`${origin}/${grace.handle}`, `${origin}/${grace.handle}/grace-elsewhere`]);
  });
});

describe("a change of an author", () => {
  it("refuses a bio over 300 characters or with control characters, through better-auth's update-user", async () => {
    const cookie = await signIn(grace);
    for (const bio of ["x".repeat(301), "tab\there", 42]) {
      const answer = await authPost("/update-user", { bio }, cookie);
      expect(answer.status, String(bio)).toBe(400);
      expect(answer.body).toMatchObject({ code: "INVALID_BIO" });
    }
    expect((await db().user.findUniqueOrThrow({ where: { id: grace.id } })).bio).toBe("Wrote the first compiler.\nRear admiral.");
  });

  it("shows a new bio and name on every page of every publication they write in, at the next request", async () => {
    const paths = [`/${publication.handle}/authors/${grace.handle}`, `/${publication.handle}/together`, `/${publication.handle}/by-grace-0`, `/${grace.handle}/grace-elsewhere`];
    for (const path of paths) {
      await html(path);
      await expect.poll(async () => (await getPath(path)).headers.get("x-cache"), { timeout: 15_000, interval: 100 }).toBe("HIT");
    }
    const before = await getPath(paths[0]!);
    const etag = before.headers.get("etag")!;

    const cookie = await signIn(grace);
    const answer = await authPost("/update-user", { bio: "  Taught machines English.\r\nNavy.  " }, cookie);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect((await db().user.findUniqueOrThrow({ where: { id: grace.id } })).bio).toBe("Taught machines English.\nNavy.");
    for (const path of paths.slice(0, 3)) {
      await expect.poll(async () => main(await html(path)), { timeout: 5_000, interval: 20 }).toContain("Taught machines English.\nNavy.");
    }
    expect((await getPath(paths[0]!, { "if-none-match": etag })).status).toBe(200);

    await db().user.update({ where: { id: grace.id }, data: { name: "Grace B. Hopper" } });
    for (const path of paths) await expect.poll(async () => main(await html(path)), { timeout: 5_000, interval: 20 }).toContain("Grace B. Hopper");
    const feed = await new Parser().parseString(await (await getPath(`/${publication.handle}/authors/${grace.handle}/feed.xml`)).text());
    expect(feed.title).toMatch(/^Grace B\. Hopper – /);
  });

  it("who is deleted leaves their posts' pages, which stop naming them", async () => {
    const ghost = await createTestAccount();
    await db().user.update({ where: { id: ghost.id }, data: { name: "Gone Ghost" } });
    await seedPublished(publication, [ghost.id, publication.id], [{ slug: "with-ghost" }], 27);
    expect(main(await html(`/${publication.handle}/with-ghost`))).toContain("Gone Ghost");
    // Their own publication goes with them (the person_deletion migration); Ada's post stays.
    await db().user.delete({ where: { id: ghost.id } });
    await expect.poll(async () => main(await html(`/${publication.handle}/with-ghost`)), { timeout: 5_000, interval: 20 }).not.toContain("Gone Ghost");
    expect((await getPath(`/${publication.handle}/authors/${ghost.handle}`)).status).toBe(404);
  });
});
