import { beforeAll, describe, expect, it } from "vitest";
import { call, createTestAccount, createTestKey, db, seedBlogs, seedImage, type ApiResponse, type TestAccount } from "../support/api";
import { servedDocument, type ServedDocument } from "../support/served-document";
import * as fixtures from "../images/fixtures";
import { zipOf } from "../imports/sources";
import { EMPTY_IMPORT_REPORT } from "~/shared/imports";

/**
 * The OpenAPI document as a contract (README, The API): every operation is driven through the
 * running server and each answer checked against what the document says of its status: the body
 * against the response schema (string formats included), every documented header present against its schema. A drift
 * between code and document fails here.
 */

const DOCUMENT_ID = "https://blogmgr.test/openapi.json";
const RATE_LIMIT_HEADERS = ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset", "x-ratelimit-used", "ratelimit-policy", "ratelimit"];

let served: ServedDocument;
let doc: any;
let account: TestAccount;

beforeAll(async () => {
  served = await servedDocument(DOCUMENT_ID);
  doc = served.doc;
  account = await createTestAccount("free");
});

const resolve = (node: any) => served.resolve(node);

/** Checks `response` against the document's description of `method template`'s answer with its status. */
function expectDocumented(method: string, template: string, response: ApiResponse) {
  const label = `${method} ${template} ${response.status}`;
  const documented = resolve(doc.paths[template]?.[method.toLowerCase()]?.responses?.[String(response.status)]);
  expect(documented, `${label} is not documented`).toBeDefined();
  const content = documented.content?.["application/json"];
  if (content) {
    const { valid, errors } = served.validateResponse(method, template, response.status, response.body);
    expect(valid, `${label}: ${errors} in ${JSON.stringify(response.body)}`).toBe(true);
  } else {
    expect(response.body, `${label} has a body the document does not describe`).toBeNull();
  }
  for (const [name, header] of Object.entries<any>(documented.headers ?? {})) {
    const value = response.headers.get(name);
    if (value === null) continue;
    const schema = resolve(header).schema;
    const parsed = schema.type === "integer" ? Number(value) : value;
    expect(served.ajv.validate(schema, parsed), `${label}: header ${name}: ${value}`).toBe(true);
  }
  const undocumented = RATE_LIMIT_HEADERS.filter((name) => response.headers.has(name) && !Object.keys(documented.headers ?? {}).some((h) => h.toLowerCase() === name));
  expect(undocumented, `${label} sends undocumented headers`).toEqual([]);
}

const json = { "content-type": "application/json" };

/** An import of the account's that has ended (made directly: what it imported does not matter here). */
const finishedImport = async (userId: string) =>
  (await db().import.create({ data: { userId, format: "markdown", fileName: "done.zip", fileBytes: 10, status: "done", report: EMPTY_IMPORT_REPORT, finishedAt: new Date() } })).id;

/** A Markdown export of one post, as POST /imports takes it. */
async function markdownExportForm(): Promise<FormData> {
  const form = new FormData();
  form.set("file", new Blob([new Uint8Array(await zipOf({ "_posts/2026-01-01-contract.md": "---\ntitle: Contract\n---\nHello.\n" }))]), "contract.zip");
  return form;
}

describe("every operation answers as the OpenAPI document describes", () => {
  it("documents every operation's successes, with the rate-limit headers they carry", async () => {
    const [blogId] = await seedBlogs(account.id, [{ title: "Contract", blogSlug: "contract" }]);
    const revisionId = (await db().blogRevision.findFirstOrThrow({ where: { blogId }, select: { id: true } })).id;
    const png = { body: (await fixtures.png()) as never, headers: { "content-type": "image/png", "idempotency-key": "contract-image" } };
    const imageId = (await call("/images", { key: account.key, method: "POST", headers: { "content-type": "image/png" }, body: (await fixtures.webp()) as never })).json.data?.image.id;
    const subscriberId = (await db().subscriber.create({ data: { userId: account.id, email: "leaving@example.com", source: "form", unsubscribeToken: `contract-${account.id}` } })).id;
    const importId = await finishedImport(account.id);
    const requests: [string, string, string, { body?: string; headers?: Record<string, string> }?][] = [
      ["GET", "/blogs", "/blogs?limit=5"],
      ["GET", "/blogs/{blogId}", `/blogs/${blogId}`],
      ["GET", "/blogs/slug/{blogSlug}", "/blogs/slug/contract"],
      ["POST", "/blogs", "/blogs", { body: JSON.stringify({ title: "  Created  " }), headers: { ...json, "idempotency-key": "contract-1" } }],
      ["POST", "/blogs", "/blogs", { body: JSON.stringify({ title: "  Created  " }), headers: { ...json, "idempotency-key": "contract-1" } }],
      ["PUT", "/blogs/{blogId}", `/blogs/${blogId}`, { body: JSON.stringify({ description: "put" }), headers: json }],
      ["PATCH", "/blogs/{blogId}", `/blogs/${blogId}`, { body: JSON.stringify({ seoTitle: "patched" }), headers: json }],
      ["GET", "/analytics", "/analytics"],
      ["GET", "/rate_limit", "/rate_limit"],
      ["GET", "/tags", "/tags"],
      ["GET", "/publication", "/publication"],
      ["GET", "/views", "/views"],
      ["GET", "/blogs/{blogId}/revisions", `/blogs/${blogId}/revisions`],
      ["GET", "/blogs/{blogId}/revisions/{revisionId}", `/blogs/${blogId}/revisions/${revisionId}`],
      ["GET", "/blogs/{blogId}/newsletter", `/blogs/${blogId}/newsletter`],
      ["POST", "/blogs/{blogId}/revisions/{revisionId}/restore", `/blogs/${blogId}/revisions/${revisionId}/restore`],
      ["DELETE", "/blogs/{blogId}", `/blogs/${blogId}`],
      ["POST", "/images", "/images", png],
      ["POST", "/images", "/images", png],
      ["GET", "/images", "/images?limit=5"],
      ["GET", "/images/{imageId}", `/images/${imageId}`],
      ["DELETE", "/images/{imageId}", `/images/${imageId}`],
      ["GET", "/subscribers", "/subscribers?status=active&q=example"],
      ["POST", "/subscribers", "/subscribers", { body: JSON.stringify({ email: "contract@example.com", name: "Contract" }), headers: json }],
      ["POST", "/subscribers", "/subscribers", { body: JSON.stringify({ email: "contract@example.com" }), headers: json }],
      ["DELETE", "/subscribers/{subscriberId}", `/subscribers/${subscriberId}`],
      ["POST", "/imports", "/imports", { body: (await markdownExportForm()) as never }],
      ["GET", "/imports/{importId}", `/imports/${importId}`],
      ["GET", "/audit-log", "/audit-log?action=blog&limit=5"],
    ];
    const documentedOperations = Object.entries<any>(doc.paths).flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`));
    expect([...new Set(requests.map(([method, template]) => `${method} ${template}`))].sort()).toEqual(documentedOperations.sort());
    for (const [method, template, path, options] of requests) {
      const response = await call(path, { key: account.key, method, ...options });
      expect(response.status, `${method} ${path}: ${JSON.stringify(response.body)}`).toBeLessThan(300);
      expectDocumented(method, template, response);
      for (const name of RATE_LIMIT_HEADERS) expect(response.headers.has(name), `${method} ${template}: ${name}`).toBe(true);
    }
  });

  it("documents the refusals: 400, 401, 403, 404, 405, 413, 415 and 429", async () => {
    const own = await createTestAccount("free");
    const readOnly = await createTestKey(own.id, { permissions: ["read:blogs"] });
    const image = (headers: Record<string, string>, body: Uint8Array) => call("/images", { key: own.key, method: "POST", headers, body: body as never });
    const checks: [string, string, Promise<ApiResponse>][] = [
      ["POST", "/images", image({ "content-type": "image/svg+xml" }, fixtures.svgWithScript())],
      ["POST", "/images", image({ "content-type": "image/png" }, fixtures.pngBomb())],
      ["POST", "/images", image({ "content-type": "image/png" }, new Uint8Array(11 * 1024 * 1024))],
      ["GET", "/images/{imageId}", call("/images/nope", { key: own.key })],
      ["GET", "/blogs", call("/blogs?limit=0", { key: own.key })],
      ["POST", "/blogs", call("/blogs", { key: own.key, method: "POST", headers: json, body: JSON.stringify({ title: "x".repeat(201) }) })],
      ["POST", "/blogs", call("/blogs", { key: own.key, method: "POST", headers: json, body: "{}" })],
      ["POST", "/subscribers", call("/subscribers", { key: own.key, method: "POST", headers: json, body: JSON.stringify({ email: "not an address" }) })],
      ["DELETE", "/subscribers/{subscriberId}", call("/subscribers/nope", { key: own.key, method: "DELETE" })],
      ["GET", "/audit-log", call("/audit-log?from=yesterday", { key: own.key })],
      ["GET", "/audit-log", call("/audit-log", { key: readOnly })],
      ["GET", "/blogs", call("/blogs")],
      ["DELETE", "/blogs/{blogId}", call("/blogs/nope", { key: readOnly, method: "DELETE" })],
      ["GET", "/rate_limit", call("/rate_limit", { key: `${own.key}x` })],
      ["GET", "/blogs/{blogId}", call("/blogs/nope", { key: own.key })],
      ["PATCH", "/blogs/{blogId}", call("/blogs/nope", { key: own.key, method: "PATCH", headers: { "content-type": "text/plain" }, body: "x" })],
      ["PUT", "/blogs/{blogId}", call("/blogs/nope", { key: own.key, method: "PUT", headers: json, body: JSON.stringify({ content: "x".repeat(1_100_000) }) })],
    ];
    for (const [method, template, response] of checks) expectDocumented(method, template, await response);
    const notAllowed = await call("/rate_limit", { key: own.key, method: "DELETE" });
    expect(notAllowed.status).toBe(405);
    expectDocumented("GET", "/rate_limit", notAllowed);
    await Promise.all(Array.from({ length: 100 }, () => call("/blogs", { key: own.key })));
    const limited = await call("/blogs", { key: own.key });
    expect(limited.status).toBe(429);
    expectDocumented("GET", "/blogs", limited);
  });

  it("documents the conditional answers: 304 to a GET whose ETag still matches, 412 to a change whose If-Match no longer does", async () => {
    const own = await createTestAccount("free");
    const [blogId] = await seedBlogs(own.id, [{ title: "Conditional", blogSlug: "conditional" }]);
    const revisionId = (await db().blogRevision.findFirstOrThrow({ where: { blogId }, select: { id: true } })).id;
    const reads: [string, string][] = [
      ["/blogs", "/blogs?limit=5"],
      ["/blogs/{blogId}", `/blogs/${blogId}`],
      ["/blogs/slug/{blogSlug}", "/blogs/slug/conditional"],
      ["/tags", "/tags"],
      ["/publication", "/publication"],
      ["/views", "/views"],
      ["/images", "/images"],
      ["/images/{imageId}", `/images/${await seedImage(own.id)}`],
      ["/subscribers", "/subscribers"],
      ["/blogs/{blogId}/revisions", `/blogs/${blogId}/revisions`],
      ["/blogs/{blogId}/revisions/{revisionId}", `/blogs/${blogId}/revisions/${revisionId}`],
      ["/blogs/{blogId}/newsletter", `/blogs/${blogId}/newsletter`],
      // A finished import: one running changes with its progress.
      ["/imports/{importId}", `/imports/${await finishedImport(own.id)}`],
      ["/audit-log", "/audit-log"],
      // A past range: today's range changes with every request, this one among them.
      ["/analytics", "/analytics?from=2025-01-01&to=2025-01-31"],
    ];
    const conditionalReads = Object.entries<any>(doc.paths).filter(([, item]) => item.get?.responses["304"]).map(([template]) => template);
    expect(reads.map(([template]) => template).sort()).toEqual(conditionalReads.sort());
    for (const [template, path] of reads) {
      const etag = (await call(path, { key: own.key })).headers.get("etag");
      expect(etag, `GET ${template} sends an ETag`).not.toBeNull();
      const unchanged = await call(path, { key: own.key, headers: { "if-none-match": etag! } });
      expect(unchanged.status, `GET ${template}`).toBe(304);
      expectDocumented("GET", template, unchanged);
    }
    const stale = { "if-match": '"stale"', ...json };
    for (const method of ["PUT", "PATCH", "DELETE"]) {
      const refused = await call(`/blogs/${blogId}`, { key: own.key, method, headers: stale, body: method === "DELETE" ? undefined : JSON.stringify({ description: "x" }) });
      expect(refused.status, method).toBe(412);
      expectDocumented(method, "/blogs/{blogId}", refused);
    }
    const restore = await call(`/blogs/${blogId}/revisions/${revisionId}/restore`, { key: own.key, method: "POST", headers: { "if-match": '"stale"' } });
    expect(restore.status).toBe(412);
    expectDocumented("POST", "/blogs/{blogId}/revisions/{revisionId}/restore", restore);
  });
});
