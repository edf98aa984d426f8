import { beforeAll, describe, expect, it } from "vitest";
import { call, createTestAccount, db, seedBlogs, type TestAccount } from "../support/api";
import { signIn, trpc } from "../support/dashboard";
import { expectError } from "./expect";

/**
 * Text PostgreSQL cannot store as sent (docs/api.md, writing rules): a NUL, or an unpaired
 * surrogate that would be stored as U+FFFD, in any text input of either door is a 400
 * INVALID_PARAMETER naming the field, never a 500, and nothing is written.
 */

const NUL = "\u0000";
const LONE_SURROGATE = "\ud800";

let account: TestAccount;
let blogId: string;
let cookie: string;

beforeAll(async () => {
  account = await createTestAccount();
  blogId = (await seedBlogs(account.id, [{ title: "Unchanged" }]))[0]!;
  cookie = await signIn(account);
});

const send = (method: string, path: string, body: unknown) =>
  call(path, { key: account.key, method, body: JSON.stringify(body), headers: { "content-type": "application/json" } });

describe("over /api/v1", () => {
  const FIELDS = ["title", "blogSlug", "description", "content", "seoTitle", "seoDescription"];

  it.each(FIELDS.flatMap((field) => [NUL, LONE_SURROGATE].map((bad) => [field, bad === NUL ? "NUL" : "a lone surrogate", bad] as const)))(
    "refuses %s with %s on create, PUT and PATCH, naming it",
    async (field, _, bad) => {
      const value = field === "blogSlug" ? `slug${bad}` : `text ${bad} here`;
      for (const [method, path] of [["POST", "/blogs"], ["PUT", `/blogs/${blogId}`], ["PATCH", `/blogs/${blogId}`]] as const) {
        const error = expectError(await send(method, path, { title: "A title", [field]: value }), 400, "INVALID_PARAMETER");
        expect(error.message).toBe(`Invalid parameter: ${field}`);
        expect(error.details).toContain(field);
      }
    },
  );

  it("refuses NUL in query parameters; a path with %00 names no blog (ids and slugs are never decoded)", async () => {
    for (const path of [`/blogs?q=a%00b`, `/blogs?from=2026-01-01%00`, `/analytics?from=%00`]) {
      const error = expectError(await call(path, { key: account.key }), 400, "INVALID_PARAMETER");
      expect(error.details, path).toMatch(/must not contain NUL characters/);
    }
    for (const path of [`/blogs/slug/a%00b`, `/blogs/${blogId}%00`]) expectError(await call(path, { key: account.key }), 404, "RESOURCE_NOT_FOUND");
  });

  it("refuses NUL in a field name and deep in the body", async () => {
    expectError(await send("POST", "/blogs", { title: "A title", [`x${NUL}`]: 1 }), 400, "INVALID_PARAMETER");
    expectError(await send("PATCH", `/blogs/${blogId}`, { title: "A title", extra: { deep: [NUL] } }), 400, "INVALID_PARAMETER");
  });

  it("wrote nothing meanwhile", async () => {
    expect(await db().blog.count({ where: { userId: account.id } })).toBe(1);
    expect((await db().blog.findUniqueOrThrow({ where: { id: blogId } })).title).toBe("Unchanged");
  });
});

describe("over the dashboard's /api/trpc", () => {
  it.each([
    ["blogs.create", { title: `t${NUL}` }, "title"],
    ["blogs.update", () => ({ blogId, content: `c${NUL}` }), "content"],
    ["keys.create", { name: `key${NUL}`, permissions: ["read:blogs"] }, "name"],
    ["keys.create", { name: "key", description: `d${LONE_SURROGATE}`, permissions: ["read:blogs"] }, "description"],
    ["webhooks.create", { url: "http://127.0.0.1:9/hook", eventTypes: ["blog.created"], description: `d${NUL}` }, "description"],
    ["webhooks.create", { url: `http://127.0.0.1:9/${NUL}`, eventTypes: ["blog.created"] }, "url"],
  ] as const)("%s refuses NUL or a lone surrogate in %j with 400 INVALID_PARAMETER naming the field", async (procedure, input, field) => {
    const answer = await trpc(cookie, procedure, typeof input === "function" ? input() : input);
    expect(answer.status).toBe(400);
    expect(answer.body.error.data).toMatchObject({ apiCode: "INVALID_PARAMETER", field });
    expect(answer.body.error.message).toBe(`Invalid parameter: ${field}`);
  });

  it("refuses NUL in a query's input too", async () => {
    const answer = await trpc(cookie, "blogs.list", { q: NUL });
    expect(answer.status).toBe(400);
    expect(answer.body.error.data).toMatchObject({ apiCode: "INVALID_PARAMETER", field: "q" });
  });

  it("created nothing", async () => {
    expect(await db().apiKey.count({ where: { userId: account.id, name: { startsWith: "key" } } })).toBe(0);
    expect(await db().webhookEndpoint.count({ where: { userId: account.id } })).toBe(0);
  });
});
