import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startProductionServer, type RunningServer } from "../../scripts/lib/next-server";
import { serverLogFile } from "../support/server-logs";
import { apiBaseUrl, call, createTestAccount, seedBlogs, type TestAccount } from "../support/api";
import { expectSuccess } from "../api/expect";
import * as fixtures from "../images/fixtures";
import { signIn } from "../support/dashboard";

/**
 * OWASP API8:2023 Security Misconfiguration, over HTTP against the built production server: every
 * response carries the security headers (README, Security), pages a per-request CSP nonce that
 * their scripts carry, authenticated answers are never stored by caches, the OpenAPI document's
 * server does not follow forwarding headers, and no stack trace or framework banner leaks.
 */

let owner: TestAccount;
let cookie: string;
let blogPath: string;

beforeAll(async () => {
  owner = await createTestAccount();
  const blogSlug = `headers-${Date.now().toString(36)}`;
  await seedBlogs(owner.id, [{ title: "A public post", blogSlug, isPublic: true }]);
  blogPath = `/${owner.handle}/${blogSlug}`;
  cookie = await signIn(owner);
});

function request(path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(new URL(path, apiBaseUrl()), { redirect: "manual", ...init });
}

/** The headers every response has, whatever serves it (Next or the /api/v1 handler). */
function expectSecurityHeaders(headers: Headers): void {
  expect(headers.get("x-content-type-options")).toBe("nosniff");
  expect(headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
  expect(headers.get("permissions-policy")).toMatch(/camera=\(\)/);
  expect(headers.get("permissions-policy")).toMatch(/geolocation=\(\)/);
  // The test server runs with NODE_ENV=production.
  const hstsMaxAge = /^max-age=(\d+); includeSubDomains$/.exec(headers.get("strict-transport-security") ?? "")?.[1];
  expect(Number(hstsMaxAge)).toBeGreaterThanOrEqual(31_536_000);
  expect(headers.get("x-frame-options")).toBe("DENY");
  expect(headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
  expect(headers.get("x-powered-by")).toBeNull();
}

function expectNoStore(headers: Headers): void {
  const directives = (headers.get("cache-control") ?? "").split(",").map((d) => d.trim().toLowerCase());
  expect(directives).toContain("no-store");
}

/** A page: the security headers, and a CSP whose nonce is on every script tag of the HTML. */
async function expectPage(path: string, init: RequestInit = {}): Promise<{ response: Response; nonce: string; html: string }> {
  const response = await request(path, init);
  expect(response.status, path).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^text\/html/);
  expectSecurityHeaders(response.headers);
  const csp = response.headers.get("content-security-policy")!;
  const nonce = /'nonce-([A-Za-z0-9+/=_-]+)'/.exec(/script-src [^;]*/.exec(csp)?.[0] ?? "")?.[1];
  expect(nonce, `script-src of ${path} has a nonce: ${csp}`).toBeDefined();
  expect(csp).toMatch(/object-src 'none'/);
  expect(csp).toMatch(/base-uri 'none'/);
  expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  expect(csp).not.toMatch(/script-src[^;]*'unsafe-eval'/);
  const html = await response.text();
  const scripts = html.match(/<script\b[^>]*>/g) ?? [];
  expect(scripts.length, `${path} has scripts`).toBeGreaterThan(0);
  for (const tag of scripts) expect(tag, path).toContain(`nonce="${nonce}"`);
  return { response, nonce: nonce!, html };
}

describe("pages", () => {
  it.each(["/", "/sign-in", "/sign-up"])("%s has the security headers and a nonce on every script", async (path) => {
    await expectPage(path);
  });

  it("the nonce differs on every request", async () => {
    const nonces = await Promise.all([1, 2, 3].map(async () => (await expectPage("/")).nonce));
    expect(new Set(nonces).size).toBe(3);
  });

  it("a public blog page and the owner's public index: the security headers, no script at all and a CSP that allows none", async () => {
    for (const path of [blogPath, `/${owner.handle}`]) {
      const response = await request(path);
      expect(response.status, path).toBe(200);
      expectSecurityHeaders(response.headers);
      const csp = response.headers.get("content-security-policy")!;
      // No script-src: default-src 'none' governs scripts, so none runs, inline or not.
      expect(csp).toMatch(/^default-src 'none';/);
      expect(csp).not.toMatch(/script-src|unsafe-inline|unsafe-eval|nonce-/);
      expect(csp).toMatch(/base-uri 'none'/);
      const html = await response.text();
      expect((html.match(/<script\b[^>]*>/g) ?? []).filter((tag) => tag !== '<script type="application/ld+json">'), path).toEqual([]);
      if (path === blogPath) expect(html).toContain("A public post");
    }
  });

  it("the not-found page", async () => {
    const response = await request(`/${owner.handle}/no-such-blog`);
    expect(response.status).toBe(404);
    expectSecurityHeaders(response.headers);
  });

  it.each(["/dashboard", "/dashboard/keys", "/dashboard/api"])("%s signed in: no-store and a nonce", async (path) => {
    const { response } = await expectPage(path, { headers: { cookie } });
    expectNoStore(response.headers);
  });

  it("a dashboard page signed out redirects to sign-in, with the headers and no-store", async () => {
    const response = await request("/dashboard/keys");
    expect(response.status).toBe(307);
    expect(response.headers.get("location")).toMatch(/\/sign-in\?next=/);
    expectSecurityHeaders(response.headers);
    expectNoStore(response.headers);
  });

  it("the API reference page shows the configured origin, not a forged X-Forwarded-Host", async () => {
    const response = await request("/dashboard/api", { headers: { cookie, "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" } });
    expect(response.status).toBe(200);
    expect((await response.text()).includes("evil.example"), "the page names the forged host").toBe(false);
  });
});

describe("the dashboard's endpoints", () => {
  it("/api/trpc signed in and signed out: the headers and no-store", async () => {
    const signedIn = await request("/api/trpc/keys.list", { headers: { cookie } });
    expect(signedIn.status).toBe(200);
    expectSecurityHeaders(signedIn.headers);
    expectNoStore(signedIn.headers);
    const signedOut = await request("/api/trpc/keys.list");
    expect(signedOut.status).toBe(401);
    expectSecurityHeaders(signedOut.headers);
    expectNoStore(signedOut.headers);
  });

  it("/api/auth: the headers and no-store", async () => {
    const session = await request("/api/auth/get-session", { headers: { cookie } });
    expect(session.status).toBe(200);
    expect(((await session.json()) as { user: { email: string } }).user.email).toBe(owner.email);
    expectSecurityHeaders(session.headers);
    expectNoStore(session.headers);
  });
});

describe("/api/v1", () => {
  it("with a key: the headers, no shared or unrevalidated caching, CORS and the envelope", async () => {
    const response = await request("/api/v1/blogs", { headers: { "x-api-key": owner.key, origin: "https://client.example" } });
    expect(response.status).toBe(200);
    expectSecurityHeaders(response.headers);
    // A GET with an ETag may be kept by its client only, and is revalidated every time (README, The API).
    expect(response.headers.get("cache-control")).toBe("private, no-cache");
    expect(response.headers.get("content-security-policy")).toMatch(/default-src 'none'/);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(((await response.json()) as { success: boolean }).success).toBe(true);
  });

  it("without a key: the same headers on the error envelope", async () => {
    const response = await request("/api/v1/blogs");
    expect(response.status).toBe(401);
    expectSecurityHeaders(response.headers);
    expectNoStore(response.headers);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(await response.json()).toEqual({ success: false, error: { code: "MISSING_API_KEY", message: expect.any(String) } });
  });

  it("a CORS preflight still answers, with the headers", async () => {
    const response = await request("/api/v1/blogs", {
      method: "OPTIONS",
      headers: { origin: "https://client.example", "access-control-request-method": "POST", "access-control-request-headers": "x-api-key, content-type" },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("access-control-allow-headers")).toMatch(/X-API-Key/i);
    expectSecurityHeaders(response.headers);
  });

  it("the OpenAPI document's server ignores a forged X-Forwarded-Host", async () => {
    const response = await request("/api/v1/openapi.json", { headers: { "x-forwarded-host": "evil.example", "x-forwarded-proto": "https", host: "evil.example" } });
    expect(response.status).toBe(200);
    expectSecurityHeaders(response.headers);
    const document = (await response.json()) as { servers: { url: string }[] };
    // No public origin is configured for the test server: the server is relative to the document.
    expect(document.servers).toEqual([{ url: "/api/v1" }]);
  });
});

describe("a configured public origin (BETTER_AUTH_URL)", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startProductionServer({ ...process.env, BETTER_AUTH_URL: "https://blogs.example.test" }, { logFile: serverLogFile() });
  }, 120_000);
  afterAll(() => server?.stop());

  it("is the OpenAPI document's server, whatever the forwarding headers say", async () => {
    const response = await fetch(`${server.baseUrl}/api/v1/openapi.json`, { headers: { "x-forwarded-host": "evil.example", "x-forwarded-proto": "http" } });
    const document = (await response.json()) as { servers: { url: string }[] };
    expect(document.servers).toEqual([{ url: "https://blogs.example.test/api/v1" }]);
  });
});

describe("Next's image optimizer (/_next/image)", () => {
  it("is not served: stored images and share images have their own variants, and it would decode them at any width and keep deleted ones", async () => {
    const image = expectSuccess(await call("/images", { key: owner.key, method: "POST", headers: { "content-type": "image/png" }, body: (await fixtures.png()) as never }), 201).image;
    const imagePath = new URL(image.url).pathname;
    const queries = [
      { url: imagePath, w: "640", q: "75" },
      { url: imagePath, w: "3840", q: "100" },
      { url: `${blogPath}/share-image.png`, w: "1080", q: "75" },
      // Odd input Next answered with a 500 and its stack.
      { url: "/images/%00", w: "16", q: "1" },
      { url: "//example.com/a.png", w: "x", q: "75" },
    ];
    for (const query of queries) {
      const response = await request(`/_next/image?${new URLSearchParams(query)}`);
      expect(response.status, JSON.stringify(query)).toBe(404);
      expect(response.headers.get("content-type") ?? "").not.toMatch(/^image\//);
      expect(await response.text()).not.toMatch(/\n\s+at \S|node_modules/);
    }
  });
});

describe("no stack traces or framework banners", () => {
  const STACK = /\n\s+at \S|"stack"\s*:|node_modules|webpack|turbopack/i;

  it("/api/v1 malformed JSON: the envelope only", async () => {
    const response = await request("/api/v1/blogs", { method: "POST", headers: { "x-api-key": owner.key, "content-type": "application/json" }, body: "{not json" });
    expect(response.status).toBe(400);
    expect(response.headers.get("x-powered-by")).toBeNull();
    const text = await response.text();
    expect(text).not.toMatch(STACK);
    expect(JSON.parse(text)).toMatchObject({ success: false, error: { code: "INVALID_PARAMETER" } });
  });

  it("/api/trpc malformed input", async () => {
    const response = await request(`/api/trpc/blogs.list?input=${encodeURIComponent("{not json")}`, { headers: { cookie } });
    expect(response.status).toBe(400);
    expect(response.headers.get("x-powered-by")).toBeNull();
    expect(await response.text()).not.toMatch(STACK);
  });

  it("/api/auth malformed body", async () => {
    const response = await request("/api/auth/sign-in/email", {
      method: "POST",
      headers: { "content-type": "application/json", origin: new URL(apiBaseUrl()).origin },
      body: "{not json",
    });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    expect(response.headers.get("x-powered-by")).toBeNull();
    expect(await response.text()).not.toMatch(STACK);
  });
});
