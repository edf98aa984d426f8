// An owner's feeds over HTTP (docs/public-blog.md): RSS 2.0 and Atom 1.0 read by a standard
// parser (rss-parser), JSON Feed 1.1 checked field by field; the 20 newest public blogs only,
// full sanitized HTML, absolute links, linked from the pages; a change shows at the next request;
// ETags and 304s; 404 for an unknown handle or an account with no public blog.
import Parser from "rss-parser";
import { validateXML } from "xmllint-wasm";
import { beforeAll, describe, expect, it } from "vitest";
import { apiBaseUrl, getPath, call, createTestAccount, db, seedBlogs, seedImage, type TestAccount } from "../support/api";

const parser = new Parser();
const FEEDS = [
  { file: "feed.xml", contentType: "application/rss+xml; charset=utf-8" },
  { file: "atom.xml", contentType: "application/atom+xml; charset=utf-8" },
  { file: "feed.json", contentType: "application/feed+json; charset=utf-8" },
] as const;


interface FeedItem {
  title: string;
  link: string;
  html: string;
}

/** The items of one of the owner's feeds, newest first, whichever its format. */
async function feedItems(handle: string, file: (typeof FEEDS)[number]["file"]): Promise<FeedItem[]> {
  const response = await getPath(`/${handle}/${file}`);
  expect(response.status).toBe(200);
  const text = await response.text();
  if (file === "feed.json") {
    const feed = JSON.parse(text) as { version: string; items: { title: string; url: string; content_html: string }[] };
    expect(feed.version).toBe("https://jsonfeed.org/version/1.1");
    return feed.items.map((item) => ({ title: item.title, link: item.url, html: item.content_html }));
  }
  const feed = await parser.parseString(text);
  return feed.items.map((item) => ({ title: item.title!, link: item.link!, html: item.content ?? item["content:encoded"] ?? "" }));
}

let account: TestAccount;
let origin: string;

beforeAll(async () => {
  account = await createTestAccount();
  origin = new URL(apiBaseUrl()).origin;
  const drafts = Array.from({ length: 3 }, (_, i) => ({ title: `Draft ${i}`, blogSlug: `draft-${i}`, isPublic: false }));
  // 22 public blogs, published a day apart: the feeds hold the 20 newest.
  const published = Array.from({ length: 22 }, (_, i) => ({
    title: `Post ${i}`,
    blogSlug: `post-${i}`,
    isPublic: true,
    content: i === 21 ? "# Newest\n\nSee [the index](https://example.com/x) <script>alert(1)</script>" : `Body ${i}`,
  }));
  await seedBlogs(account.id, [...drafts, ...published]);
  for (let i = 0; i < 22; i++) {
    await db().blog.updateMany({ where: { userId: account.id, blogSlug: `post-${i}` }, data: { publishedAt: new Date(Date.UTC(2026, 0, 1 + i)) } });
  }
  const scheduled = await call("/blogs", {
    key: account.key,
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ title: "Scheduled", publishAt: new Date(Date.now() + 86_400_000).toISOString() }),
  });
  expect(scheduled.status).toBe(201);
});

describe("an owner's feeds", () => {
  it.each(FEEDS)("$file: the 20 newest public blogs, newest first, with absolute links and sanitized HTML", async ({ file, contentType }) => {
    const response = await getPath(`/${account.handle}/${file}`);
    expect(response.headers.get("content-type")).toBe(contentType);
    const items = await feedItems(account.handle, file);
    expect(items.map((item) => item.title)).toEqual(Array.from({ length: 20 }, (_, i) => `Post ${21 - i}`));
    expect(items.map((item) => item.link)).toEqual(Array.from({ length: 20 }, (_, i) => `${origin}/${account.handle}/post-${21 - i}`));
    expect(items[0]!.html).toContain("<h1>Newest</h1>");
    expect(items[0]!.html).toContain('href="https://example.com/x"');
    expect(items[0]!.html).not.toContain("<script");
  });

  it("are linked from the index and the blog pages", async () => {
    const { name } = await db().user.findUniqueOrThrow({ where: { id: account.id } });
    for (const path of [`/${account.handle}`, `/${account.handle}/post-3`]) {
      const html = await (await getPath(path)).text();
      for (const [type, file, title] of [
        ["application/rss+xml", "feed.xml", "RSS"],
        ["application/atom+xml", "atom.xml", "Atom"],
        ["application/feed+json", "feed.json", "JSON Feed"],
      ]) {
        expect(html).toContain(`<link rel="alternate" type="${type}" href="${origin}/${account.handle}/${file}" title="${name} (${title})"/>`);
      }
    }
  });

  it("show a change made by plain SQL once its notice arrives, and answer If-None-Match with a 304", async () => {
    const before = await getPath(`/${account.handle}/feed.xml`);
    const etag = before.headers.get("etag")!;
    expect(etag).toMatch(/^W\/"[A-Za-z0-9_-]{43}"$/);
    const unchanged = await getPath(`/${account.handle}/feed.xml`, { "if-none-match": etag });
    expect(unchanged.status).toBe(304);
    expect(unchanged.headers.get("etag")).toBe(etag);
    expect(await unchanged.text()).toBe("");

    // Plain SQL, as any writer: the account's content version moves with it, and PostgreSQL tells the server.
    await db().$executeRawUnsafe(`UPDATE "blog" SET "title" = 'Post 21, edited' WHERE "userId" = $1 AND "blogSlug" = 'post-21'`, account.id);
    await expect.poll(async () => (await getPath(`/${account.handle}/feed.xml`, { "if-none-match": etag })).status, { timeout: 5_000, interval: 20 }).toBe(200);
    const after = await getPath(`/${account.handle}/feed.xml`, { "if-none-match": etag });
    expect(after.headers.get("etag")).not.toBe(etag);
    for (const { file } of FEEDS) expect((await feedItems(account.handle, file))[0]!.title).toBe("Post 21, edited");
  });

  it("carry a blog's cover and write our images' URLs in its HTML absolute, srcset included", async () => {
    const owner = await createTestAccount();
    const cover = await seedImage(owner.id, { width: 1600, height: 900, format: "jpeg", bytes: 54_321 });
    const inline = await seedImage(owner.id, { width: 1000, height: 500, format: "png" });
    const created = await call("/blogs", {
      key: owner.key,
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ title: "With Cover", isPublic: true, coverImage: cover, content: `![Inline](/images/${inline}/1000x500.png)` }),
    });
    expect(created.status).toBe(201);
    const coverUrl = `${origin}/images/${cover}/1600x900.jpeg`;

    const rss = await (await getPath(`/${owner.handle}/feed.xml`)).text();
    expect((await parser.parseString(rss)).items[0]!.enclosure).toEqual({ url: coverUrl, length: "54321", type: "image/jpeg" });
    const atom = await (await getPath(`/${owner.handle}/atom.xml`)).text();
    expect(atom).toContain(`<link rel="enclosure" href="${coverUrl}" type="image/jpeg" length="54321"/>`);
    const json = JSON.parse(await (await getPath(`/${owner.handle}/feed.json`)).text());
    expect(json.items[0]).toMatchObject({ image: coverUrl, banner_image: coverUrl });

    for (const { file } of FEEDS) {
      const [item] = await feedItems(owner.handle, file);
      expect(item!.html).toContain(`<img src="${origin}/images/${inline}/1000x500.png" alt="Inline" width="1000" height="500" srcset="${origin}/images/${inline}/480w.png 480w, ${origin}/images/${inline}/664w.png 664w, ${origin}/images/${inline}/960w.png 960w, ${origin}/images/${inline}/1000x500.png 1000w"`);
      expect(item!.html).toContain(`<source type="image/avif" srcset="${origin}/images/${inline}/480w.avif 480w, ${origin}/images/${inline}/664w.avif 664w, ${origin}/images/${inline}/960w.avif 960w"`);
      expect(item!.html).not.toMatch(/(src|srcset)="\/images\//);
    }
  });

  it.each(FEEDS)("$file: 404 for an unknown handle and for an account with no public blog", async ({ file }) => {
    const empty = await createTestAccount();
    for (const handle of ["no-such-handle-anywhere", empty.handle]) {
      const response = await getPath(`/${handle}/${file}`);
      expect(response.status).toBe(404);
      expect(response.headers.get("cache-control")).toBe("no-store");
    }
  });
});

describe("text with characters XML cannot carry", () => {
  // C0 controls but tab, newline and carriage return, and the noncharacters U+FFFE and U+FFFF, may
  // not appear in XML 1.0 at all, not even escaped (docs/security.md, Public pages).
  const CONTROLS = "\u0001\u0008\u000b\u001b\ufffe\uffff";

  it("leaves every feed and sitemap well-formed XML, the text otherwise as written", async () => {
    const owner = await createTestAccount();
    const created = await call("/blogs", {
      key: owner.key,
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        title: `Bell${CONTROLS} title`,
        description: `Escape${CONTROLS} description`,
        tags: [`Ctl${CONTROLS} tag`],
        content: `Para${CONTROLS}graph`,
        isPublic: true,
      }),
    });
    expect(created.status).toBe(201);
    const tag = `/${owner.handle}/tags/ctl-tag`;
    for (const path of [`/${owner.handle}/feed.xml`, `/${owner.handle}/atom.xml`, `${tag}/feed.xml`, `${tag}/atom.xml`, `/${owner.handle}/sitemap.xml`, "/sitemap.xml"]) {
      const response = await getPath(path);
      expect(response.status, path).toBe(200);
      const xml = await response.text();
      const { valid, errors } = await validateXML({ xml: { fileName: "feed.xml", contents: xml }, normalization: "format" });
      expect(errors, path).toEqual([]);
      expect(valid, path).toBe(true);
      if (path.endsWith("feed.xml") || path.endsWith("atom.xml")) {
        expect(xml, path).toContain("Bell title");
        expect(xml, path).toContain("Para");
      }
    }
  });
});
