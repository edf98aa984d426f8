import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startNextServer, type RunningServer } from "../../scripts/lib/next-server";
import { serverLogFile } from "../support/server-logs";
import { MAX_API_BODY_BYTES } from "~/server/api/rest/request-body";
import { apiBaseUrl, createTestAccount, seedBlogs, type TestAccount } from "../support/api";
import * as fixtures from "../images/fixtures";

/**
 * The suite runs against the production server, which hands /api/v1 to the REST handler itself.
 * On Vercel (and under `next dev`) Next dispatches /api/v1 to the same handler through the Pages
 * Router route: started here with `next start`, it must answer exactly as the production server.
 */
let viaNext: RunningServer;
let account: TestAccount;
let blogIds: string[];

beforeAll(async () => {
  account = await createTestAccount();
  blogIds = await seedBlogs(account.id, [{ title: "First" }, { title: "Second", isPublic: true }, { title: "Hidden", allowApiAccess: false }]);
  viaNext = await startNextServer(process.env, { logFile: serverLogFile() });
}, 120_000);

afterAll(() => viaNext?.stop());

async function request(baseUrl: string, path: string, init: RequestInit = {}) {
  const response = await fetch(`${baseUrl}/api/v1${path}`, init);
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? (JSON.parse(text) as { success: boolean; data?: any; error?: { code: string } }) : null };
}

const withKey = (init: RequestInit = {}): RequestInit => ({ ...init, headers: { "x-api-key": account.key, ...init.headers } });
const json = (method: string, body: string, contentType = "application/json"): RequestInit => withKey({ method, body, headers: { "content-type": contentType } });

describe("/api/v1 dispatched by Next (the Vercel path)", () => {
  // Requests are built when run: the account's key exists only after beforeAll.
  it.each<[string, string, () => RequestInit]>([
    ["a list", "/blogs?limit=2", () => withKey()],
    ["a filtered list", "/blogs?public=true", () => withKey()],
    ["an invalid parameter", "/blogs?limit=0", () => withKey()],
    ["no key", "/blogs", () => ({})],
    ["an unknown key", "/blogs", () => ({ headers: { "x-api-key": "bm_unknown" } })],
    ["an unknown path", "/nope", () => withKey()],
    ["a wrong method", "/blogs", () => withKey({ method: "DELETE" })],
    ["a body that is not JSON", "/blogs", () => json("POST", "{}", "text/plain")],
    ["malformed JSON", "/blogs", () => json("POST", "{")],
    ["a missing title", "/blogs", () => json("POST", "{}")],
  ])("answers %s as the production server does", async (_, path, requestInit) => {
    const init = requestInit();
    const [production, next] = await Promise.all([request(apiBaseUrl(), path, init), request(viaNext.baseUrl, path, init)]);
    expect(next.status).toBe(production.status);
    expect(next.body).toEqual(production.body);
    for (const header of ["content-type", "x-ratelimit-limit", "allow", "access-control-allow-origin"]) {
      expect(next.headers.get(header), header).toBe(production.headers.get(header));
    }
    expect(next.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("serves a blog by id and answers a CORS preflight", async () => {
    const blog = await request(viaNext.baseUrl, `/blogs/${blogIds[0]}`, withKey());
    expect(blog.status).toBe(200);
    expect(blog.body?.data.blog.title).toBe("First");
    expect((await request(viaNext.baseUrl, `/blogs/${blogIds[2]}`, withKey())).status).toBe(404);
    const preflight = await request(viaNext.baseUrl, "/blogs", { method: "OPTIONS" });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-methods")).toContain("PATCH");
  });

  it("creates with a JSON body (seen by the production server) and refuses a body over 1 MiB", async () => {
    const created = await request(viaNext.baseUrl, "/blogs", json("POST", JSON.stringify({ title: "Through Next", blogSlug: "through-next" })));
    expect(created.status).toBe(201);
    const seen = await request(apiBaseUrl(), "/blogs/slug/through-next", withKey());
    expect(seen.body?.data.blog.id).toBe(created.body?.data.blog.id);
    const tooLarge = await request(viaNext.baseUrl, "/blogs", json("POST", JSON.stringify({ title: "x".repeat(MAX_API_BODY_BYTES) })));
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body?.error?.code).toBe("PAYLOAD_TOO_LARGE");
  });

  it("takes an image as the body or as a form, and refuses one over 10 MiB", async () => {
    const raw = await request(viaNext.baseUrl, "/images", withKey({ method: "POST", body: new Uint8Array(await fixtures.png()), headers: { "content-type": "image/png" } }));
    expect(raw.status).toBe(201);
    expect(raw.body?.data.image).toMatchObject({ width: 640, height: 480, contentType: "image/png" });
    const form = new FormData();
    form.set("file", new Blob([new Uint8Array(await fixtures.webp())]), "picture.webp");
    expect((await request(viaNext.baseUrl, "/images", withKey({ method: "POST", body: form }))).body?.data.image.contentType).toBe("image/webp");
    const tooLarge = await request(viaNext.baseUrl, "/images", withKey({ method: "POST", body: new Uint8Array(11 * 1024 * 1024), headers: { "content-type": "image/png" } }));
    expect([tooLarge.status, tooLarge.body?.error?.code]).toEqual([413, "PAYLOAD_TOO_LARGE"]);
  });

  it("records usage after the response", async () => {
    await request(viaNext.baseUrl, "/blogs", withKey());
    const analytics = await request(viaNext.baseUrl, "/analytics", withKey());
    const byEndpoint = analytics.body?.data.byEndpoint as { method: string; path: string; requests: number }[];
    expect(byEndpoint.find((e) => e.method === "GET" && e.path === "/blogs")?.requests).toBeGreaterThan(0);
  });
});

describe("the public site dispatched by Next (the Vercel path)", () => {
  const origin = (baseUrl: string) => new URL(baseUrl).origin;
  /** An answer with the server's own origin in its absolute links put back to a placeholder, to compare two servers'. */
  async function publicAnswer(baseUrl: string, path: string, headers: Record<string, string> = {}) {
    const response = await fetch(baseUrl + path, { headers });
    return { status: response.status, headers: response.headers, body: (await response.text()).replaceAll(origin(baseUrl), "ORIGIN") };
  }

  it("answers every kind of public address as the production server does", async () => {
    const second = await seedBlogs(account.id, [{ title: "Through Next, public", blogSlug: "next-public", isPublic: true, tags: ["Dispatch"] }]);
    expect(second).toHaveLength(1);
    const owner = `/${account.handle}`;
    for (const path of [owner, `${owner}/next-public`, `${owner}/tags/dispatch`, `${owner}/feed.xml`, `${owner}/tags/dispatch/feed.json`, `${owner}/sitemap.xml`, "/robots.txt", `${owner}/no-such-blog`, "/zz"]) {
      const [production, next] = await Promise.all([publicAnswer(apiBaseUrl(), path), publicAnswer(viaNext.baseUrl, path)]);
      expect(next.status, path).toBe(production.status);
      expect(next.body, path).toBe(production.body);
      // robots.txt's Last-Modified is its server's start.
      for (const header of ["content-type", "cache-control", "content-security-policy", ...(path === "/robots.txt" ? [] : ["last-modified"])]) {
        expect(next.headers.get(header), `${path} ${header}`).toBe(production.headers.get(header));
      }
      if (production.status === 200) {
        const etag = next.headers.get("etag")!;
        expect((await fetch(viaNext.baseUrl + path, { headers: { "if-none-match": etag } })).status, path).toBe(304);
      }
    }
  });

  it("serves an image's files as the production server does", async () => {
    const uploaded = await request(apiBaseUrl(), "/images", withKey({ method: "POST", body: new Uint8Array(await fixtures.png()), headers: { "content-type": "image/png" } }));
    const { image } = uploaded.body?.data as { image: { url: string; variants: { url: string }[] } };
    for (const path of [image.url, ...image.variants.map((variant) => variant.url)].map((url) => new URL(url).pathname)) {
      const [production, next] = await Promise.all([fetch(apiBaseUrl() + path), fetch(viaNext.baseUrl + path)]);
      expect([next.status, production.status], path).toEqual([200, 200]);
      expect(Buffer.from(await next.arrayBuffer()).equals(Buffer.from(await production.arrayBuffer())), path).toBe(true);
      for (const header of ["content-type", "cache-control", "content-security-policy", "x-content-type-options", "etag"]) {
        expect(next.headers.get(header), `${path} ${header}`).toBe(production.headers.get(header));
      }
    }
  });

  it("takes the address from the request, never from a client's x-public-url, and leaves the dashboard's 404 to the dashboard", async () => {
    const forged = await fetch(`${viaNext.baseUrl}/no-such-owner-here`, { headers: { "x-public-url": `/${account.handle}` } });
    expect(forged.status).toBe(404);
    expect((await fetch(`${viaNext.baseUrl}/api/public`, { headers: { "x-public-url": `/${account.handle}` } })).status).toBe(404);
    // Addresses the proxy's matcher skipped fell back to the public site with the client's header:
    // a shared cache would have kept the owner's page (or an image) under them (docs/security.md, Header trust).
    for (const baseUrl of [viaNext.baseUrl, apiBaseUrl()]) {
      for (const path of ["/_next/static/no-such-file.js", "/api/authx", "/favicon.icox", "/api/v1x", "/api/trpcx"]) {
        const answer = await fetch(baseUrl + path, { headers: { "x-public-url": `/${account.handle}` } });
        expect(answer.status, `${baseUrl}${path}`).toBe(404);
        expect(answer.headers.get("cache-control"), `${baseUrl}${path}`).not.toMatch(/public/);
        expect(await answer.text(), `${baseUrl}${path}`).not.toContain("Second");
      }
    }
    const dashboard = await fetch(`${viaNext.baseUrl}/dashboard/no-such-page`);
    expect(dashboard.status).toBe(404);
    expect(await dashboard.text()).toContain("Page not found");
  });
});
