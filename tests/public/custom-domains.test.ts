// A publication at its verified custom domain (docs/public-blog.md, Custom domains), over HTTP
// against the server under test: requests whose Host is the domain get the publication at /, with
// every link under https://<domain>; its /{handle}/... addresses on the app's host answer 301
// there; an unverified domain is not served; X-Forwarded-Host is never read (docs/security.md).
import { randomBytes } from "node:crypto";
import { request } from "node:http";
import { beforeAll, describe, expect, it } from "vitest";
import { apiBaseUrl, call, createTestAccount, db, type TestAccount } from "../support/api";

const run = randomBytes(4).toString("hex");
const domain = `blog-${run}.example.test`;
const unverifiedDomain = `pending-${run}.example.test`;
let owner: TestAccount;
let pendingOwner: TestAccount;

/** A GET with the Host header given (fetch cannot set it), redirects not followed. */
function visit(path: string, host?: string, headers: Record<string, string> = {}): Promise<{ status: number; location?: string; body: string }> {
  const base = new URL(apiBaseUrl());
  return new Promise((resolve, reject) => {
    const req = request({ host: base.hostname, port: base.port, path, headers: { ...(host && { host }), ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode!, location: res.headers.location, body: Buffer.concat(chunks).toString() }));
    });
    req.on("error", reject).end();
  });
}

async function publish(account: TestAccount, blogSlug: string, tags: string[] = []): Promise<void> {
  const created = await call("/blogs", { key: account.key, method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ title: `Post ${blogSlug}`, blogSlug, isPublic: true, tags }) });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
}

beforeAll(async () => {
  [owner, pendingOwner] = await Promise.all([createTestAccount(), createTestAccount()]);
  await Promise.all([publish(owner, "hello", ["News"]), publish(pendingOwner, "waiting")]);
  await db().publication.create({ data: { userId: owner.id, domain, domainToken: "blogmgr-verify=t", domainVerifiedAt: new Date() } });
  await db().publication.create({ data: { userId: pendingOwner.id, domain: unverifiedDomain, domainToken: "blogmgr-verify=u" } });
});

describe("a verified domain", () => {
  it("serves the home, a post and a tag page at its root, linking under https://<domain>", async () => {
    const home = await visit("/", domain);
    expect(home.status).toBe(200);
    expect(home.body).toContain('<link rel="canonical" href="https://' + domain + '/"/>');
    expect(home.body).toContain(`href="https://${domain}/hello"`);
    expect(home.body).toContain(`href="https://${domain}/feed.xml"`);
    expect(home.body).not.toContain(`/${owner.handle}`);

    const post = await visit("/hello", domain);
    expect(post.status).toBe(200);
    expect(post.body).toContain(`<link rel="canonical" href="https://${domain}/hello"/>`);
    expect(post.body).toContain(`href="https://${domain}/tags/news"`);
    expect(post.body).toContain(`"@id":"https://${domain}/hello"`);

    expect((await visit("/tags/news", domain)).status).toBe(200);
    // The port a client may add is no other host.
    expect((await visit("/hello", `${domain.toUpperCase()}:443`)).status).toBe(200);
  });

  it("serves feeds, its owner's sitemap and robots.txt naming it", async () => {
    const feed = await visit("/feed.xml", domain);
    expect(feed.status).toBe(200);
    expect(feed.body).toContain(`<link>https://${domain}/hello</link>`);
    expect(feed.body).not.toContain(`/${owner.handle}`);
    expect((await visit("/tags/news/feed.json", domain)).body).toContain(`"url": "https://${domain}/hello"`);

    const sitemap = await visit("/sitemap.xml", domain);
    expect(sitemap.status).toBe(200);
    for (const loc of [`https://${domain}/`, `https://${domain}/hello`, `https://${domain}/tags/news`]) expect(sitemap.body).toContain(`<loc>${loc}</loc>`);

    const robots = await visit("/robots.txt", domain);
    expect(robots.body).toContain(`Sitemap: https://${domain}/sitemap.xml`);
  });

  it("answers nothing but the publication: the dashboard, the APIs and previews are 404 there", async () => {
    for (const path of ["/dashboard", "/api/v1/blogs", "/api/trpc/publication.get", "/preview/abc", "/missing", `/${owner.handle}/hello`]) {
      expect((await visit(path, domain)).status, path).toBe(404);
    }
  });

  it("moves the owner's addresses on the app's host there with 301, query kept", async () => {
    expect(await visit(`/${owner.handle}/hello?ref=x`)).toMatchObject({ status: 301, location: `https://${domain}/hello?ref=x` });
    expect(await visit(`/${owner.handle}`)).toMatchObject({ status: 301, location: `https://${domain}/` });
    expect(await visit(`/${owner.handle}/tags/news/atom.xml`)).toMatchObject({ status: 301, location: `https://${domain}/tags/news/atom.xml` });
    // Its sitemap is the domain's: the app's index leaves it out.
    expect((await visit("/sitemap.xml")).body).not.toContain(`/${owner.handle}/sitemap.xml`);
  });

  it("is never taken from X-Forwarded-Host: the app's host stays the app's", async () => {
    const forged = await visit(`/${owner.handle}/hello`, undefined, { "x-forwarded-host": domain });
    expect(forged).toMatchObject({ status: 301, location: `https://${domain}/hello` });
    const root = await visit("/hello", undefined, { "x-forwarded-host": domain });
    expect(root.status).toBe(404);
    // And on the domain, a forwarded app host changes nothing either.
    expect((await visit("/hello", domain, { "x-forwarded-host": new URL(apiBaseUrl()).host })).status).toBe(200);
  });
});

describe("an unverified domain", () => {
  it("is not served, and its owner's pages stay on the app's host", async () => {
    expect((await visit("/waiting", unverifiedDomain)).status).toBe(404);
    expect((await visit("/", unverifiedDomain)).body).not.toContain("Post waiting");
    expect((await visit(`/${pendingOwner.handle}/waiting`)).status).toBe(200);
    expect((await visit(`/${pendingOwner.handle}/waiting`, unverifiedDomain)).status).toBe(200);
  });
});
