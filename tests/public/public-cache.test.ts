// Every public answer over HTTP (docs/public-blog.md, The cache): cacheable by a CDN, with an ETag
// and a Last-Modified, answering conditional requests with 304, compressed when asked, and, for
// pages, plain HTML with no script to run and a CSP that needs no per-request nonce.
import { request } from "node:http";
import { beforeAll, describe, expect, it } from "vitest";
import { apiBaseUrl, call, createTestAccount, db, getPath, seedBlogs, type TestAccount } from "../support/api";

let account: TestAccount;
let blogSlug: string;
/** Every kind of public address, for one account with a public blog tagged "Cache Tests". */
let addresses: string[];

beforeAll(async () => {
  account = await createTestAccount();
  blogSlug = "cached-answers";
  await seedBlogs(account.id, [{ blogSlug, isPublic: true, title: "Cached answers", content: "# Heading\n\n```js\nconst x = 1;\n```", tags: ["Cache Tests"] }]);
  const owner = `/${account.handle}`;
  const tag = `${owner}/tags/cache-tests`;
  addresses = [
    owner,
    `${owner}/${blogSlug}`,
    `${owner}/${blogSlug}/share-image.png`,
    tag,
    ...["feed.xml", "atom.xml", "feed.json"].flatMap((file) => [`${owner}/${file}`, `${tag}/${file}`]),
    `${owner}/sitemap.xml`,
    "/sitemap.xml",
    "/robots.txt",
  ];
});

/** A raw GET or HEAD, without fetch's own Accept-Encoding and decompression. */
function raw(path: string, headers: Record<string, string> = {}, method = "GET"): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, apiBaseUrl()), { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("every public answer", () => {
  it("may be kept by a CDN (public, s-maxage, stale-while-revalidate) and has a weak ETag and a Last-Modified", async () => {
    for (const path of addresses) {
      const response = await getPath(path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get("cache-control"), path).toBe("public, max-age=0, s-maxage=30, stale-while-revalidate=30");
      expect(response.headers.get("etag"), path).toMatch(/^W\/"[A-Za-z0-9_-]{43}"$/);
      expect(Date.parse(response.headers.get("last-modified") ?? ""), path).not.toBeNaN();
      expect(response.headers.get("x-content-type-options"), path).toBe("nosniff");
    }
  });

  it("answers If-None-Match and If-Modified-Since with a 304 and no body, and a changed answer with a 200", async () => {
    for (const path of addresses) {
      const first = await getPath(path);
      const etag = first.headers.get("etag")!;
      const lastModified = first.headers.get("last-modified")!;
      const conditionals: Record<string, string>[] = [{ "if-none-match": etag }, { "if-none-match": `"other", ${etag}` }, { "if-modified-since": lastModified }];
      for (const conditional of conditionals) {
        const again = await raw(path, conditional);
        expect(again.status, `${path} ${JSON.stringify(conditional)}`).toBe(304);
        expect(again.body.length).toBe(0);
        expect(again.headers.etag).toBe(etag);
        expect(again.headers["cache-control"]).toContain("s-maxage");
      }
      // A validator of something else, or a date before the last change, gets the answer.
      expect((await raw(path, { "if-none-match": '"stale"' })).status).toBe(200);
      expect((await raw(path, { "if-modified-since": new Date(Date.parse(lastModified) - 1000).toUTCString() })).status).toBe(200);
      // If-None-Match wins over If-Modified-Since (RFC 9110).
      expect((await raw(path, { "if-none-match": '"stale"', "if-modified-since": lastModified })).status).toBe(200);
    }
  });

  it("is compressed with Brotli or gzip as the client accepts (text only), and the same after decompression", async () => {
    const path = `/${account.handle}/${blogSlug}`;
    const plain = await raw(path);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.headers.vary).toBe("Accept-Encoding");
    const brotli = await raw(path, { "accept-encoding": "gzip, br" });
    expect(brotli.headers["content-encoding"]).toBe("br");
    expect(brotli.body.length).toBeLessThan(plain.body.length);
    const gzip = await raw(path, { "accept-encoding": "gzip, br;q=0" });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    const { brotliDecompressSync, gunzipSync } = await import("node:zlib");
    expect(brotliDecompressSync(brotli.body).equals(plain.body)).toBe(true);
    expect(gunzipSync(gzip.body).equals(plain.body)).toBe(true);
    expect(brotli.headers.etag).toBe(plain.headers.etag);
    const image = await raw(`/${account.handle}/${blogSlug}/share-image.png`, { "accept-encoding": "gzip, br" });
    expect(image.headers["content-encoding"]).toBeUndefined();
  });

  it("answers HEAD with the same headers and no body, and any other method with 405", async () => {
    for (const path of [`/${account.handle}`, "/sitemap.xml"]) {
      const get = await raw(path);
      const head = await raw(path, {}, "HEAD");
      expect(head.status).toBe(200);
      expect(head.body.length).toBe(0);
      expect(head.headers["content-length"]).toBe(get.headers["content-length"]);
      expect(head.headers.etag).toBe(get.headers.etag);
      const post = await raw(path, {}, "POST");
      expect(post.status).toBe(405);
      expect(post.headers.allow).toBe("GET, HEAD");
    }
  });

  it("is the same for any query it ignores: one cached answer, not one per query", async () => {
    const plain = await raw(`/${account.handle}/${blogSlug}`);
    const withQuery = await raw(`/${account.handle}/${blogSlug}?utm_source=x&page=2`);
    expect(withQuery.headers.etag).toBe(plain.headers.etag);
  });
});

describe("the cache", () => {
  it("serves a kept answer with no database work once the change listener is proven (X-Cache: HIT)", async () => {
    const path = `/${account.handle}/${blogSlug}`;
    await getPath(path);
    // The listener proves itself within seconds of the server's start (src/server/public-site/change-listener.ts).
    await expect.poll(async () => (await getPath(path)).headers.get("x-cache"), { timeout: 15_000, interval: 200 }).toBe("HIT");
  });
});

describe("a public page", () => {
  it("runs no script: none in the page but its JSON-LD, and a CSP with no nonce, no inline script and only its stylesheet's hash", async () => {
    for (const path of [`/${account.handle}`, `/${account.handle}/${blogSlug}`, `/${account.handle}/tags/cache-tests`, "/no-such-handle/nothing"]) {
      const response = await getPath(path);
      const html = await response.text();
      const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map(([tag]) => tag);
      expect(scripts.every((tag) => tag === '<script type="application/ld+json">'), path).toBe(true);
      expect(html).not.toMatch(/\/_next\//);
      const csp = response.headers.get("content-security-policy")!;
      expect(csp).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]{44}'; img-src 'self' https: data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'$/);
      expect(csp).not.toContain("nonce");
      const style = /<style>([\s\S]*?)<\/style>/.exec(html)![1]!;
      const { createHash } = await import("node:crypto");
      expect(csp).toContain(`'sha256-${createHash("sha256").update(style).digest("base64")}'`);
    }
  });

  it("a blog page: Open Graph and Twitter cards with its share image, and JSON-LD BlogPosting", async () => {
    const html = await (await getPath(`/${account.handle}/${blogSlug}`)).text();
    const origin = new URL(apiBaseUrl()).origin;
    const url = `${origin}/${account.handle}/${blogSlug}`;
    expect(html).toContain(`<meta property="og:image" content="${url}/share-image.png"/>`);
    expect(html).toContain('<meta property="og:type" content="article"/>');
    expect(html).toContain('<meta name="twitter:card" content="summary_large_image"/>');
    expect(html).toContain(`<link rel="canonical" href="${url}"/>`);
    const jsonLd = JSON.parse(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)![1]!);
    expect(jsonLd).toMatchObject({
      "@context": "https://schema.org",
      "@type": "BlogPosting",
      headline: "Cached answers",
      image: [`${url}/share-image.png`],
      author: { "@type": "Person", url: `${origin}/${account.handle}` },
      mainEntityOfPage: { "@type": "WebPage", "@id": url },
      keywords: "Cache Tests",
    });
    expect(Date.parse(jsonLd.datePublished)).not.toBeNaN();
  });

  it("JSON-LD cannot be closed early by a title: `<` is escaped", async () => {
    const [id] = await seedBlogs(account.id, [{ blogSlug: "script-title", isPublic: true, title: "</script><script>alert(1)</script>" }]);
    const html = await (await getPath(`/${account.handle}/script-title`)).text();
    expect(html).not.toContain("<script>alert(1)");
    expect(html).toContain("\\u003c/script>");
    await db().blog.delete({ where: { id } });
  });

  it("the share image is a 1200×630 PNG; a blog that is not public has none", async () => {
    const response = await getPath(`/${account.handle}/${blogSlug}/share-image.png`);
    expect(response.headers.get("content-type")).toBe("image/png");
    // A PNG's signature, then its IHDR chunk: width and height at bytes 16 and 20.
    const png = Buffer.from(await response.arrayBuffer());
    expect(png.subarray(0, 8).toString("hex")).toBe("89504e470d0a1a0a");
    expect({ width: png.readUInt32BE(16), height: png.readUInt32BE(20) }).toEqual({ width: 1200, height: 630 });
    await seedBlogs(account.id, [{ blogSlug: "draft-image", isPublic: false, title: "Draft" }]);
    expect((await getPath(`/${account.handle}/draft-image/share-image.png`)).status).toBe(404);
  });

  it("a 404 is never kept by a cache", async () => {
    for (const path of [`/${account.handle}/no-such-blog`, "/no-such-handle-at-all", `/${account.handle}/tags/no-such-tag`, `/${account.handle}/a/b/c/d`]) {
      const response = await getPath(path);
      expect(response.status, path).toBe(404);
      expect(response.headers.get("cache-control")).toBe("no-store");
      expect(await response.text()).toContain("<h1>Not found</h1>");
    }
  });

  it("shows a change made through the API at the next request, with a new ETag", async () => {
    const path = `/${account.handle}/${blogSlug}`;
    const before = await getPath(path);
    const { json } = await call(`/blogs?search=Cached%20answers`, { key: account.key });
    const id = json.data.blogs.find((blog: { blogSlug: string }) => blog.blogSlug === blogSlug).id;
    const updated = await call(`/blogs/${id}`, { key: account.key, method: "PATCH", headers: { "content-type": "application/json" }, body: JSON.stringify({ title: "Cached answers, changed" }) });
    expect(updated.status).toBe(200);
    const after = await raw(path, { "if-none-match": before.headers.get("etag")! });
    expect(after.status).toBe(200);
    expect(after.body.toString()).toContain("Cached answers, changed");
  });
});
