// Tag pages and tag feeds over HTTP (docs/public-blog.md): /{handle}/tags/{tagSlug} lists the
// owner's public blogs carrying the tag, 20 a page, headed by the tag as written; its feeds hold
// the same blogs; a blog's page links its tags; unknown tags and non-slugs are 404.
import Parser from "rss-parser";
import { beforeAll, describe, expect, it } from "vitest";
import { apiBaseUrl, getPath, createTestAccount, db, seedBlogs, type TestAccount } from "../support/api";

const titlesOn = (html: string) => [...(/<main[\s\S]*?<\/main>/.exec(html)?.[0] ?? "").matchAll(/<h2[^>]*><a[^>]*>([^<]*)<\/a><\/h2>/g)].map((match) => match[1]);

let account: TestAccount;
let origin: string;

beforeAll(async () => {
  account = await createTestAccount();
  origin = new URL(apiBaseUrl()).origin;
  await seedBlogs(account.id, [
    ...Array.from({ length: 21 }, (_, i) => ({ title: `Tagged ${i}`, blogSlug: `tagged-${i}`, isPublic: true, tags: ["Next.js", "Web"] })),
    { title: "Untagged", blogSlug: "untagged", isPublic: true, tags: ["Web"] },
    { title: "Tagged draft", blogSlug: "tagged-draft", isPublic: false, tags: ["Next.js"] },
  ]);
  for (let i = 0; i < 21; i++) {
    await db().blog.updateMany({ where: { userId: account.id, blogSlug: `tagged-${i}` }, data: { publishedAt: new Date(Date.UTC(2026, 0, 1 + i)) } });
  }
});

describe("a tag's page", () => {
  it("lists the public blogs carrying it, newest first, 20 a page, under the tag as written", async () => {
    const first = await getPath(`/${account.handle}/tags/next-js`);
    expect(first.status).toBe(200);
    const html = await first.text();
    expect(html).toContain(">Next.js</h1>");
    expect(titlesOn(html)).toEqual(Array.from({ length: 20 }, (_, i) => `Tagged ${20 - i}`));
    expect(html).toContain(`href="${origin}/${account.handle}/tags/next-js?page=2"`);
    const second = await (await getPath(`/${account.handle}/tags/next-js?page=2`)).text();
    expect(titlesOn(second)).toEqual(["Tagged 0"]);
    expect(second).not.toContain("Tagged draft");
  });

  it("is 404 for a tag no public blog carries, and for anything but a tag's slug", async () => {
    for (const path of ["tags/no-such-tag", "tags/Next.js", "tags/next--js", `tags/${"a".repeat(101)}`]) {
      expect((await getPath(`/${account.handle}/${path}`)).status).toBe(404);
    }
  });

  it("links its feeds, which hold the same blogs", async () => {
    const html = await (await getPath(`/${account.handle}/tags/next-js`)).text();
    expect(html).toContain(`<link rel="alternate" type="application/rss+xml" href="${origin}/${account.handle}/tags/next-js/feed.xml"`);
    const feed = await new Parser().parseString(await (await getPath(`/${account.handle}/tags/next-js/feed.xml`)).text());
    expect(feed.link).toBe(`${origin}/${account.handle}/tags/next-js`);
    expect(feed.items.map((item) => item.title)).toEqual(Array.from({ length: 20 }, (_, i) => `Tagged ${20 - i}`));
    const json = (await (await getPath(`/${account.handle}/tags/next-js/feed.json`)).json()) as { items: unknown[]; home_page_url: string };
    expect(json.home_page_url).toBe(`${origin}/${account.handle}/tags/next-js`);
    expect(json.items).toHaveLength(20);
    expect((await getPath(`/${account.handle}/tags/no-such-tag/atom.xml`)).status).toBe(404);
  });

  it("is linked from each blog carrying the tag", async () => {
    const html = await (await getPath(`/${account.handle}/tagged-3`)).text();
    expect(html).toContain(`href="${origin}/${account.handle}/tags/next-js">Next.js</a>`);
    expect(html).toContain(`href="${origin}/${account.handle}/tags/web">Web</a>`);
  });
});
