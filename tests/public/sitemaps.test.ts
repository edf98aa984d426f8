// Sitemaps and robots.txt over HTTP (docs/public-blog.md): the index lists each owner with a
// public blog, an owner's sitemap exactly their public blogs, both valid against the sitemaps.org
// schemas (xmllint); a change shows at the next request; robots.txt names the index.
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { validateXML } from "xmllint-wasm";
import { beforeAll, describe, expect, it } from "vitest";
import { apiBaseUrl, getPath, call, createTestAccount, db, seedBlogs, type TestAccount } from "../support/api";


/** The `sitemap` package's copy of the sitemaps.org urlset schema, and the index schema written from the protocol. */
const URLSET_SCHEMA = fileURLToPath(new URL("../../node_modules/sitemap/schema/sitemap.xsd", import.meta.url));
const INDEX_SCHEMA = fileURLToPath(new URL("./siteindex.xsd", import.meta.url));

async function expectValid(xml: string, schemaPath: string): Promise<void> {
  const result = await validateXML({ xml: { fileName: "sitemap.xml", contents: xml }, schema: { fileName: "schema.xsd", contents: await readFile(schemaPath, "utf8") } });
  expect(result.errors).toEqual([]);
  expect(result.valid).toBe(true);
}

const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((match) => match[1]);

let account: TestAccount;
let origin: string;

beforeAll(async () => {
  account = await createTestAccount();
  origin = new URL(apiBaseUrl()).origin;
  await seedBlogs(account.id, [
    { title: "Public one", blogSlug: "public-one", isPublic: true },
    { title: "Public two", blogSlug: "public-two", isPublic: true },
    { title: "Draft", blogSlug: "a-draft", isPublic: false },
  ]);
  const scheduled = await call("/blogs", {
    key: account.key,
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ title: "Scheduled", blogSlug: "scheduled-one", publishAt: new Date(Date.now() + 86_400_000).toISOString() }),
  });
  expect(scheduled.status).toBe(201);
});

describe("sitemaps", () => {
  it("an owner's sitemap: the index page and exactly the public blogs, valid against the urlset schema", async () => {
    const response = await getPath(`/${account.handle}/sitemap.xml`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/xml; charset=utf-8");
    const xml = await response.text();
    await expectValid(xml, URLSET_SCHEMA);
    expect(locs(xml).sort()).toEqual([`${origin}/${account.handle}`, `${origin}/${account.handle}/public-one`, `${origin}/${account.handle}/public-two`].sort());
    expect(xml).toMatch(/<lastmod>\d{4}-\d\d-\d\dT[\d:.]+Z<\/lastmod>/);
  });

  it("the index: this owner's sitemap, never one of an account without a public blog, valid against the index schema", async () => {
    const empty = await createTestAccount();
    const xml = await (await getPath("/sitemap.xml")).text();
    await expectValid(xml, INDEX_SCHEMA);
    expect(locs(xml)).toContain(`${origin}/${account.handle}/sitemap.xml`);
    expect(locs(xml)).not.toContain(`${origin}/${empty.handle}/sitemap.xml`);
    expect((await getPath(`/${empty.handle}/sitemap.xml`)).status).toBe(404);
  });

  it("show a change made by another process once its notice arrives, and answer If-None-Match with a 304", async () => {
    const before = await getPath(`/${account.handle}/sitemap.xml`);
    const etag = before.headers.get("etag")!;
    expect((await getPath(`/${account.handle}/sitemap.xml`, { "if-none-match": etag })).status).toBe(304);
    await db().blog.updateMany({ where: { userId: account.id, blogSlug: "a-draft" }, data: { isPublic: true } });
    await expect.poll(async () => (await getPath(`/${account.handle}/sitemap.xml`, { "if-none-match": etag })).status, { timeout: 5_000, interval: 20 }).toBe(200);
    const after = await getPath(`/${account.handle}/sitemap.xml`, { "if-none-match": etag });
    expect(locs(await after.text())).toContain(`${origin}/${account.handle}/a-draft`);
  });
});

describe("robots.txt", () => {
  it("lets crawlers read the public blog, not the dashboard, the APIs or previews, and names the sitemap index", async () => {
    const response = await getPath("/robots.txt");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect((await response.text()).split("\n")).toEqual([
      "User-agent: *",
      "Disallow: /dashboard",
      "Disallow: /api/",
      "Disallow: /preview/",
      `Sitemap: ${origin}/sitemap.xml`,
      "",
    ]);
  });
});
