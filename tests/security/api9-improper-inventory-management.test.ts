import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { OPENAPI_DOCUMENT_PATH, REST_ROUTES } from "~/server/api/rest/routes";
import { expectError } from "../api/expect";
import { apiBaseUrl, call, createTestAccount, db, seedBlogs, seedImage, type TestAccount } from "../support/api";
import * as fixtures from "../images/fixtures";
import { zipOf } from "../imports/sources";
import { EMPTY_IMPORT_REPORT } from "~/shared/imports";

/**
 * OWASP API9:2023 Improper Inventory Management: the OpenAPI document is the API's inventory.
 * Every operation it lists is served, every operation served is listed (the document itself
 * aside), nothing else answers under /api/v1 but 404 or 405, and no other API version exists.
 */

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];

interface DocumentedOperation {
  method: string;
  path: string;
  responses: Record<string, unknown>;
  security?: unknown[];
}

let account: TestAccount;
let operations: DocumentedOperation[];
let doc: any;

beforeAll(async () => {
  account = await createTestAccount();
  doc = (await call(OPENAPI_DOCUMENT_PATH)).body;
  operations = Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m.toLowerCase()]).map((method) => ({ ...item[method.toLowerCase()], method, path })),
  );
});

const name = (op: { method: string; path: string }) => `${op.method} ${op.path}`;

/** A request that the operation serves successfully, on blogs made for it. */
async function validRequest(op: DocumentedOperation) {
  const [blogId] = await seedBlogs(account.id, [{ title: `For ${name(op)}` }]);
  const blog = { id: blogId!, slug: (await call(`/blogs/${blogId}`, { key: account.key })).json.data.blog.blogSlug };
  const revisionId = (await db().blogRevision.findFirstOrThrow({ where: { blogId: blog.id }, select: { id: true } })).id;
  const subscriberId = (await db().subscriber.create({ data: { userId: account.id, email: `${randomUUID()}@example.com`, source: "form", unsubscribeToken: randomUUID() } })).id;
  const path = op.path
    .replace("{blogId}", blog.id)
    .replace("{blogSlug}", blog.slug)
    .replace("{revisionId}", revisionId)
    .replace("{imageId}", await seedImage(account.id))
    .replace("{subscriberId}", subscriberId)
    .replace("{importId}", (await db().import.create({ data: { userId: account.id, format: "markdown", fileName: "done.zip", fileBytes: 10, status: "done", report: EMPTY_IMPORT_REPORT } })).id);
  if (op.path === "/images" && op.method === "POST") return { path, method: op.method, headers: { "content-type": "image/png" }, body: (await fixtures.png()) as never };
  if (op.path === "/imports" && op.method === "POST") {
    const form = new FormData();
    form.set("file", new Blob([new Uint8Array(await zipOf({ "_posts/2026-01-01-inventory.md": "---\ntitle: Inventory\n---\nHello.\n" }))]), "inventory.zip");
    return { path, method: op.method, headers: {} as Record<string, string>, body: form as never };
  }
  const fields = op.path === "/subscribers" ? { email: `${randomUUID()}@example.com` } : { title: "Inventory" };
  const body = ["POST", "PUT", "PATCH"].includes(op.method) ? JSON.stringify(fields) : undefined;
  return { path, method: op.method, headers: { "content-type": "application/json" }, body };
}

describe("the OpenAPI document and the routes served", () => {
  it("list the same operations (the document does not list itself)", () => {
    expect(operations.length).toBeGreaterThan(0);
    const served = REST_ROUTES.map((r) => name({ method: r.method, path: r.template })).filter((op) => op !== `GET ${OPENAPI_DOCUMENT_PATH}`);
    expect(operations.map(name).sort()).toEqual(served.sort());
  });

  it("answers every documented operation, with a valid key, with one of its documented successes", async () => {
    for (const op of operations) {
      const { path, ...request } = await validRequest(op);
      const response = await call(path, { key: account.key, ...request });
      expect(response.status, `${name(op)}: ${JSON.stringify(response.body)}`).toBeLessThan(300);
      expect(Object.keys(op.responses)).toContain(String(response.status));
    }
  });

  it("requires the documented key on every documented operation: 401 without one", async () => {
    for (const op of operations) {
      expect(op.security?.length, name(op)).toBeGreaterThan(0);
      const { path, ...request } = await validRequest(op);
      expectError(await call(path, request), 401, "MISSING_API_KEY");
    }
  });

  it("answers an undocumented method on a documented path with 405 and Allow naming exactly the documented ones", async () => {
    const paths = [...new Set(operations.map((op) => op.path)), OPENAPI_DOCUMENT_PATH];
    for (const template of paths) {
      const documented = template === OPENAPI_DOCUMENT_PATH ? ["GET"] : operations.filter((op) => op.path === template).map((op) => op.method);
      const path = template.replace("{blogId}", "some-id").replace("{blogSlug}", "some-slug").replace("{revisionId}", "some-revision").replace("{imageId}", "some-image").replace("{subscriberId}", "some-subscriber");
      for (const method of METHODS.filter((m) => !documented.includes(m))) {
        const response = await call(path, { key: account.key, method, headers: { "content-type": "application/json" }, body: method === "GET" ? undefined : "{}" });
        expectError(response, 405, "METHOD_NOT_ALLOWED");
        expect(response.headers.get("allow")?.split(", ").sort(), `${method} ${template}`).toEqual(documented.sort());
      }
    }
  });
});

describe("what is not in the inventory", () => {
  it.each([
    "/users", "/admin", "/keys", "/usage", "/account", "/health", "/debug", "/internal", "/metrics", "/graphql", "/trpc",
    "/docs", "/openapi.yaml", "/swagger.json", "/blogs.list", "/blogs/some-id/comments", "/blogs/slug/some-slug/content",
  ])("%s is 404 under /api/v1, with a valid key", async (path) => {
    for (const method of METHODS) {
      const response = await call(path, { key: account.key, method, headers: { "content-type": "application/json" }, body: method === "GET" ? undefined : "{}" });
      expectError(response, 404, "RESOURCE_NOT_FOUND");
    }
  });

  it.each(["/api/v0", "/api/v2", "/api/v1.1", "/api/V1", "/api/latest", "/api"])("no other version: %s/blogs is 404, with a valid key", async (prefix) => {
    for (const path of [`${prefix}/blogs`, `${prefix}/openapi.json`]) {
      const response = await fetch(new URL(path, apiBaseUrl()), { headers: { "x-api-key": account.key } });
      expect(response.status, path).toBe(404);
      expect(await response.text()).not.toContain('"success":true');
    }
  });
});
