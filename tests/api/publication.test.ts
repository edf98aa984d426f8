import { beforeAll, describe, expect, it } from "vitest";
import { apiBaseUrl, call, createTestAccount, createTestKey, db, getPath, seedBlogs, seedImage, type TestAccount } from "../support/api";
import { signIn, trpc } from "../support/dashboard";
import { expectError, expectSuccess } from "./expect";

/**
 * The publication (docs/publication.md) over HTTP: GET /api/v1/publication for keys with
 * read:blogs, tRPC publication.update and publication.preview for the signed-in owner alone.
 */

let ann: TestAccount;
let annCookie: string;
let annName: string;

const update = (cookie: string, input: unknown) => trpc(cookie, "publication.update", input);
const refusal = (answer: Awaited<ReturnType<typeof trpc>>) => ({ status: answer.status, apiCode: answer.body.error.data.apiCode, field: answer.body.error.data.field });

beforeAll(async () => {
  ann = await createTestAccount();
  annCookie = await signIn(ann);
  annName = (await db().user.findUniqueOrThrow({ where: { id: ann.id } })).name;
  // Signing in hashes a password: slow on a loaded machine.
}, 60_000);

describe("GET /api/v1/publication", () => {
  it("answers the defaults before any change: the owner's name, en, UTC, nothing else", async () => {
    const fresh = await createTestAccount();
    const data = expectSuccess(await call("/publication", { key: fresh.key }));
    const owner = await db().user.findUniqueOrThrow({ where: { id: fresh.id } });
    expect(data.publication).toEqual({
      title: owner.name,
      description: "",
      logo: null,
      icon: null,
      accentColor: null,
      language: "en",
      timezone: "UTC",
      navigation: [],
      socialLinks: [],
      footer: "",
      domain: null,
      domainVerified: false,
      updatedAt: null,
    });
  });

  it("needs read:blogs: another key is refused 403 in the error envelope", async () => {
    const key = await createTestKey(ann.id, { permissions: ["write:blogs"] });
    expectError(await call("/publication", { key }), 403, "INSUFFICIENT_PERMISSIONS");
    const reader = await createTestKey(ann.id, { permissions: ["read:blogs"] });
    expectSuccess(await call("/publication", { key: reader }));
    expectError(await call("/publication"), 401, "MISSING_API_KEY");
  });

  it("answers what the owner saved, canonicalised", async () => {
    const saved = await update(annCookie, {
      title: "  Field Notes ",
      description: "Short essays.",
      accentColor: "#1F6FEB",
      language: "EN-gb",
      timezone: "europe/paris",
      navigation: [{ label: "About", url: "/about" }, { label: "Shop", url: "https://shop.example.com/" }],
      socialLinks: ["https://social.example/@ann"],
      footer: "© Ann — *all rights reserved*",
    });
    expect(saved.status).toBe(200);
    const { publication } = expectSuccess(await call("/publication", { key: ann.key }));
    expect(publication).toMatchObject({
      title: "Field Notes",
      description: "Short essays.",
      accentColor: "#1f6feb",
      language: "en-GB",
      timezone: "Europe/Paris",
      navigation: [{ label: "About", url: "/about" }, { label: "Shop", url: "https://shop.example.com/" }],
      socialLinks: ["https://social.example/@ann"],
      footer: "© Ann — *all rights reserved*",
    });
    expect(Date.parse(publication.updatedAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(saved.body.result.data).toEqual({ ...publication, hostingError: null });
  });

  it("is listed in the OpenAPI document, with no way to change it there", async () => {
    const document = (await call("/openapi.json")).body as { paths: Record<string, Record<string, unknown>> };
    expect(Object.keys(document.paths["/publication"]!)).toEqual(["get"]);
  });
});

describe("publication.update", () => {
  it.each([
    ["accentColor", "blue"],
    ["accentColor", "#12345"],
    ["language", "not a language!"],
    ["timezone", "Mars/Olympus"],
    ["title", " "],
    ["title", "x".repeat(201)],
    ["description", "x".repeat(501)],
    ["footer", "x".repeat(1001)],
    ["socialLinks", ["javascript:alert(1)"]],
    ["socialLinks", Array.from({ length: 11 }, (_, i) => `https://example.com/${i}`)],
    ["navigation", Array.from({ length: 11 }, (_, i) => ({ label: `L${i}`, url: `/l${i}` }))],
    ["domain", "localhost"],
    ["domain", "https://blog.example.com/"],
    ["domain", "10.0.0.1"],
  ])("refuses %s %j with 400 INVALID_PARAMETER on that field", async (field, value) => {
    const before = expectSuccess(await call("/publication", { key: ann.key })).publication;
    const answer = await update(annCookie, { [field]: value });
    // A list's item is named by its index (socialLinks.0), the list itself when it is too long.
    expect({ ...refusal(answer), field: answer.body.error.data.field.split(".")[0] }).toEqual({ status: 400, apiCode: "INVALID_PARAMETER", field });
    expect(typeof answer.body.error.data.details).toBe("string");
    expect(expectSuccess(await call("/publication", { key: ann.key })).publication).toEqual(before);
  });

  it.each([
    [{ label: "", url: "/about" }, "navigation.0.label"],
    [{ label: "x".repeat(41), url: "/about" }, "navigation.0.label"],
    [{ label: "Evil", url: "javascript:alert(1)" }, "navigation.0.url"],
    [{ label: "Other site", url: "//evil.example/" }, "navigation.0.url"],
    [{ label: "No URL" }, "navigation.0.url"],
  ])("refuses the navigation link %j naming %s", async (link, field) => {
    const answer = await update(annCookie, { navigation: [link] });
    expect(answer.status).toBe(400);
    expect(answer.body.error.data.field).toBe(field);
  });

  it("refuses a field it does not know", async () => {
    expect((await update(annCookie, { theme: "dark" })).status).toBe(400);
  });

  it("takes null for the title back to the owner's name", async () => {
    await update(annCookie, { title: "Named" });
    const answer = await update(annCookie, { title: null });
    expect(answer.body.result.data.title).toBe(annName);
  });

  it("takes only the account's own images as logo and icon; a deleted image leaves none", async () => {
    const bob = await createTestAccount();
    const [mine, bobs] = await Promise.all([seedImage(ann.id), seedImage(bob.id)]);
    for (const field of ["logo", "icon"]) {
      expect(refusal(await update(annCookie, { [field]: bobs }))).toEqual({ status: 400, apiCode: "INVALID_PARAMETER", field });
      expect(refusal(await update(annCookie, { [field]: "img_unknown" }))).toEqual({ status: 400, apiCode: "INVALID_PARAMETER", field });
    }
    const saved = await update(annCookie, { logo: mine, icon: mine });
    expect(saved.body.result.data).toMatchObject({ logo: mine, icon: mine });
    await db().image.delete({ where: { id: mine } });
    expect(expectSuccess(await call("/publication", { key: ann.key })).publication).toMatchObject({ logo: null, icon: null });
  });

  it("keeps a domain unverified until proven; another publication's domain is a conflict", async () => {
    const bob = await createTestAccount();
    const bobCookie = await signIn(bob);
    const domain = `blog-${crypto.randomUUID().slice(0, 8)}.example.com`;
    const set = await update(annCookie, { domain: `${domain.toUpperCase()}.` });
    expect(set.body.result.data).toMatchObject({ domain, domainVerified: false });
    expect(refusal(await update(bobCookie, { domain }))).toEqual({ status: 409, apiCode: "RESOURCE_CONFLICT", field: "domain" });
    expect((await update(annCookie, { domain: null })).body.result.data.domain).toBeNull();
    expect((await update(bobCookie, { domain })).body.result.data.domain).toBe(domain);
  });

  it("is the owner's alone: no key calls it, on /api/trpc or /api/v1", async () => {
    const response = await fetch(new URL("/api/trpc/publication.update", apiBaseUrl()), {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": ann.key, origin: new URL(apiBaseUrl()).origin },
      body: JSON.stringify({ title: "By key" }),
    });
    expect(response.status).toBe(401);
    for (const method of ["PATCH", "PUT", "POST"]) {
      const answer = await call("/publication", { key: ann.key, method, headers: { "content-type": "application/json" }, body: JSON.stringify({ title: "By key" }) });
      expect([404, 405]).toContain(answer.status);
    }
    expect(expectSuccess(await call("/publication", { key: ann.key })).publication.title).not.toBe("By key");
  });

  it("shows on the public home at the next request", async () => {
    const owner = await createTestAccount();
    const cookie = await signIn(owner);
    await seedBlogs(owner.id, [{ isPublic: true, title: "First post" }]);
    expect(await (await getPath(`/${owner.handle}`)).text()).not.toContain("Morning Edition");
    await update(cookie, { title: "Morning Edition" });
    const page = await (await getPath(`/${owner.handle}`)).text();
    expect(page).toContain("<h1>Morning Edition</h1>");
  });

  it("goes with the account when it is deleted", async () => {
    const gone = await createTestAccount();
    await update(await signIn(gone), { title: "Short-lived" });
    await db().user.delete({ where: { id: gone.id } });
    expect(await db().publication.findUnique({ where: { userId: gone.id } })).toBeNull();
  });
});

describe("publication.preview", () => {
  it("renders the home with unsaved settings, saving nothing", async () => {
    const owner = await createTestAccount();
    const cookie = await signIn(owner);
    const answer = await trpc(cookie, "publication.preview", { title: "Draft Title" });
    expect(answer.status).toBe(200);
    expect(answer.body.result.data.html).toMatch(/^<!DOCTYPE html>/);
    expect(answer.body.result.data.html).toContain("<h1>Draft Title</h1>");
    expect(answer.body.result.data.html).not.toContain("<script");
    expect(expectSuccess(await call("/publication", { key: owner.key })).publication.updatedAt).toBeNull();
  });

  it("refuses what update refuses, and keys", async () => {
    const bob = await createTestAccount();
    expect(refusal(await trpc(annCookie, "publication.preview", { logo: await seedImage(bob.id) }))).toEqual({ status: 400, apiCode: "INVALID_PARAMETER", field: "logo" });
    expect((await trpc(annCookie, "publication.preview", { accentColor: "red" })).status).toBe(400);
    const byKey = await fetch(new URL(`/api/trpc/publication.preview?input=${encodeURIComponent("{}")}`, apiBaseUrl()), { headers: { "x-api-key": ann.key } });
    expect(byKey.status).toBe(401);
  });
});
