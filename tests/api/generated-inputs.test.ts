import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { call, createTestAccount, db, seedBlogs, type ApiResponse, type TestAccount } from "../support/api";

/**
 * Property: whatever query string or body a client sends, the API answers without a 5xx, always
 * in the API's error envelope (README, The API), and a rejected request leaves the database as it was.
 */

let account: TestAccount;
let blogId: string;

beforeAll(async () => {
  account = await createTestAccount();
  blogId = (await seedBlogs(account.id, [{ title: "Target", blogSlug: "target" }, { title: "Other" }]))[0]!;
});

const snapshot = async () =>
  JSON.stringify(await db().blog.findMany({ where: { userId: account.id }, orderBy: { id: "asc" } }));

function expectEnvelope(response: ApiResponse): void {
  expect(response.status, JSON.stringify(response.body)).toBeLessThan(500);
  const keys = Object.keys(response.json ?? {}).sort();
  if (response.status < 400) {
    expect(keys).toEqual(["data", "success"]);
    expect(response.json.success).toBe(true);
  } else {
    expect(keys).toEqual(["error", "success"]);
    expect(response.json.success).toBe(false);
    expect(typeof response.json.error?.code).toBe("string");
    expect(typeof response.json.error?.message).toBe("string");
  }
}

const oddStrings = fc.oneof(
  fc.string(),
  fc.constantFrom("", "0", "-1", "1.5", "1e3", "NaN", "null", "true", "false", "2024-02-30", "2025-01-01", "9".repeat(30)),
  fc.integer().map(String),
  fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
);
const queryStrings = fc
  .dictionary(fc.constantFrom("page", "limit", "public", "from", "to", "cursor", "x"), fc.oneof(oddStrings, fc.array(oddStrings, { maxLength: 3 })))
  .map((params) => {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(params)) for (const v of [value].flat()) search.append(name, v);
    return `?${search}`;
  });
const jsonValues = fc.oneof(fc.jsonValue(), fc.string(), fc.boolean(), fc.integer(), fc.constant(null));
const blogBodies = fc.oneof(
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc
    .record(
      {
        title: jsonValues,
        blogSlug: jsonValues,
        description: jsonValues,
        content: jsonValues,
        isPublic: jsonValues,
        allowApiAccess: jsonValues,
        seoTitle: jsonValues,
        seoDescription: jsonValues,
        id: jsonValues,
        createdAt: jsonValues,
      },
      { requiredKeys: [] },
    )
    .map((v) => JSON.stringify(v)),
  fc.string().map((s) => `{"title": ${s}`),
);

const RUNS = { numRuns: 40 };

describe("generated inputs at every endpoint", () => {
  it("GET /blogs and GET /analytics with any query string", async () => {
    await fc.assert(
      fc.asyncProperty(queryStrings, fc.constantFrom("/blogs", "/analytics"), async (query, path) => {
        expectEnvelope(await call(`${path}${query}`, { key: account.key }));
      }),
      RUNS,
    );
  });

  it("GET /blogs/{id} and /blogs/slug/{slug} with any path segment", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 1 }), async (segment) => {
        const encoded = encodeURIComponent(segment);
        expectEnvelope(await call(`/blogs/${encoded}`, { key: account.key }));
        expectEnvelope(await call(`/blogs/slug/${encoded}`, { key: account.key }));
      }),
      RUNS,
    );
  });

  it("POST, PUT and PATCH with any body; rejected ones change nothing", async () => {
    await fc.assert(
      fc.asyncProperty(blogBodies, fc.constantFrom("POST", "PUT", "PATCH"), async (body, method) => {
        const before = await snapshot();
        const path = method === "POST" ? "/blogs" : `/blogs/${blogId}`;
        const response = await call(path, { key: account.key, method, body, headers: { "content-type": "application/json" } });
        expectEnvelope(response);
        if (response.status >= 400) expect(await snapshot()).toBe(before);
        else if (method === "POST") await db().blog.delete({ where: { id: response.json.data.blog.id } });
      }),
      RUNS,
    );
  });

  it("DELETE of ids that do not exist changes nothing", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 1 }), async (segment) => {
        const before = await snapshot();
        const response = await call(`/blogs/${encodeURIComponent(segment)}x`, { key: account.key, method: "DELETE" });
        expectEnvelope(response);
        expect(response.status).toBe(404);
        expect(await snapshot()).toBe(before);
      }),
      RUNS,
    );
  });
});
