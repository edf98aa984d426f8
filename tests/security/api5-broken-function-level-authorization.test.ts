import { beforeAll, describe, expect, it } from "vitest";
import { matchRoute, REST_ROUTES } from "~/server/api/rest/routes";
import { PERMISSIONS, type Permission } from "~/shared/permissions";
import { expectError, expectSuccess, rateLimitHeaders } from "../api/expect";
import { call, createTestAccount, createTestKey, db, seedBlogs, seedImage, type TestAccount } from "../support/api";
import { API_KEY_PROCEDURES, DASHBOARD_PROCEDURES, signIn, trpc } from "../support/dashboard";
import { expectUnchanged } from "../support/stored-objects";

/**
 * OWASP API5:2023 Broken Function Level Authorization. Two kinds of caller, two doors: an API key
 * opens /api/v1 only, within its permissions; a dashboard session opens /api/trpc only. Neither
 * credential works at the other door, a key never reaches what only the dashboard may do (keys,
 * usage, Allow API Access, the account), and a missing permission is refused before anything
 * runs or is counted.
 */

/** The permission each REST operation needs (README, The API); null: none. */
const PERMISSION_OF: Record<string, Permission | null> = {
  "GET /openapi.json": null,
  "GET /rate_limit": null,
  "GET /blogs": "read:blogs",
  "GET /blogs/{blogId}": "read:blogs",
  "GET /blogs/slug/{blogSlug}": "read:blogs",
  "POST /blogs": "write:blogs",
  "PUT /blogs/{blogId}": "write:blogs",
  "PATCH /blogs/{blogId}": "write:blogs",
  "DELETE /blogs/{blogId}": "delete:blogs",
  "GET /analytics": "read:analytics",
  "GET /views": "read:analytics",
  "GET /publication": "read:blogs",
  "GET /blogs/{blogId}/revisions": "read:blogs",
  "GET /blogs/{blogId}/revisions/{revisionId}": "read:blogs",
  "POST /blogs/{blogId}/revisions/{revisionId}/restore": "write:blogs",
  "GET /blogs/{blogId}/newsletter": "read:analytics",
  "GET /tags": "read:blogs",
  "POST /images": "write:blogs",
  "GET /images": "read:blogs",
  "GET /images/{imageId}": "read:blogs",
  "DELETE /images/{imageId}": "delete:blogs",
  "GET /subscribers": "read:subscribers",
  "POST /subscribers": "write:subscribers",
  "DELETE /subscribers/{subscriberId}": "write:subscribers",
  "GET /audit-log": "read:audit",
  "POST /imports": "write:blogs",
  "GET /imports/{importId}": "read:blogs",
};

let owner: TestAccount;
let cookie: string;
let blogId: string;
let hiddenId: string;
let keyId: string;
let revisionId: string;
let imageId: string;

const json = { "content-type": "application/json" };

beforeAll(async () => {
  owner = await createTestAccount("free");
  cookie = await signIn(owner);
  [blogId = "", hiddenId = ""] = await seedBlogs(owner.id, [{ title: "Visible", blogSlug: "visible" }, { title: "Hidden", allowApiAccess: false }]);
  keyId = (await db().apiKey.findFirstOrThrow({ where: { userId: owner.id }, select: { id: true } })).id;
  revisionId = (await db().blogRevision.findFirstOrThrow({ where: { blogId }, select: { id: true } })).id;
  imageId = await seedImage(owner.id);
});

/** Runs `attempt` and checks that the owner's stored objects did not change: a refusal changes nothing. */
const changesNothing = (attempt: () => Promise<void>) => expectUnchanged(owner.id, attempt);

/** A request that would succeed on `template` with the right credentials. */
function requestOf(method: string, template: string) {
  const path = template.replace("{blogId}", blogId).replace("{blogSlug}", "visible").replace("{revisionId}", revisionId).replace("{imageId}", imageId);
  const body = method === "POST" || method === "PUT" || method === "PATCH" ? JSON.stringify({ title: "Changed" }) : undefined;
  return { path, method, headers: json, body };
}

const keyedRoutes = REST_ROUTES.filter((r) => PERMISSION_OF[`${r.method} ${r.template}`] !== null);

describe("an API key and the dashboard's functions", () => {
  it("finds none of them under /api/v1: 404 for every method, nothing changed", async () => {
    // Where a key holder might look for the dashboard's functions on the API.
    const dashboardPaths = [
      ...DASHBOARD_PROCEDURES.flatMap((p) => [`/${p.path}`, `/${p.path.replace(".", "/")}`]),
      "/keys", `/keys/${keyId}`, `/keys/${keyId}/deactivate`, "/usage", "/usage/rate-limit", "/account", "/me", "/user", "/plan",
      `/blogs/${hiddenId}/allow-api-access`, `/blogs/${blogId}/api-access`,
    ].filter((path) => matchRoute("GET", path) === null); // "/blogs/list" reads as a blog id: not a function
    expect(dashboardPaths.length).toBeGreaterThan(DASHBOARD_PROCEDURES.length);
    await changesNothing(async () => {
      for (const path of dashboardPaths) {
        for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"]) {
          const response = await call(path, { key: owner.key, method, headers: json, body: method === "GET" ? undefined : JSON.stringify({ permissions: [...PERMISSIONS], plan: "enterprise" }) });
          expectError(response, 404, "RESOURCE_NOT_FOUND");
        }
      }
    });
  });

  it("cannot switch Allow API Access, even holding every permission", async () => {
    await changesNothing(async () => {
      const off = await call(`/blogs/${blogId}`, { key: owner.key, method: "PATCH", headers: json, body: JSON.stringify({ allowApiAccess: false }) });
      expectError(off, 400, "INVALID_PARAMETER");
      const on = await call(`/blogs/${hiddenId}`, { key: owner.key, method: "PATCH", headers: json, body: JSON.stringify({ title: "Exposed", allowApiAccess: true }) });
      expectError(on, 404, "RESOURCE_NOT_FOUND");
    });
  });

  it.each(["x-api-key", "bearer", "query"] as const)("opens no dashboard procedure on /api/trpc (key sent as %s): 401, nothing changed", async (via) => {
    const headers: Record<string, string> =
      via === "x-api-key" ? { "x-api-key": owner.key } : via === "bearer" ? { authorization: `Bearer ${owner.key}` } : {};
    await changesNothing(async () => {
      for (const procedure of DASHBOARD_PROCEDURES) {
        const path = via === "query" ? `${procedure.path}?api_key=${owner.key}` : procedure.path;
        const input = procedure.path === "keys.deactivate" ? { id: blogId, title: "By key", name: "k", permissions: ["read:blogs"] } : undefined;
        const answer = await trpc(null, path, input, { headers, method: procedure.type === "mutation" ? "POST" : "GET" });
        expect(answer.status, `${procedure.path}: ${JSON.stringify(answer.body)}`).toBe(401);
        expect(answer.body.error.data.code).toBe("UNAUTHORIZED");
      }
    });
  });
});

describe("a dashboard session and the API", () => {
  it("opens no /api/v1 operation without a key: 401 MISSING_API_KEY, nothing changed", async () => {
    await changesNothing(async () => {
      for (const route of keyedRoutes) {
        const { path, ...request } = requestOf(route.method, route.template);
        const response = await call(path, { ...request, headers: { ...request.headers, cookie } });
        expectError(response, 401, "MISSING_API_KEY");
      }
    });
  });

  it("reaches the API's procedures through /api/trpc only with a session: a key there is no credential, 401, nothing changed", async () => {
    expect(API_KEY_PROCEDURES.length).toBe(keyedRoutes.length);
    await changesNothing(async () => {
      for (const procedure of API_KEY_PROCEDURES) {
        const answer = await trpc(null, procedure.path, { blogId, blogSlug: "visible", revisionId, imageId, title: "Via tRPC" }, { headers: { "x-api-key": owner.key } });
        expect(answer.status, `${procedure.path}: ${JSON.stringify(answer.body)}`).toBe(401);
        expect(answer.body.error.data.code).toBe("UNAUTHORIZED");
      }
    });
  });
});

describe("a key's permissions", () => {
  it("covers every operation of the API in this test's table", () => {
    expect(Object.keys(PERMISSION_OF).sort()).toEqual(REST_ROUTES.map((r) => `${r.method} ${r.template}`).sort());
  });

  it.each(keyedRoutes.map((r) => [`${r.method} ${r.template}`, r] as const))(
    "%s: a key holding every other permission gets 403 naming the missing one, nothing changed",
    async (operation, route) => {
      const needed = PERMISSION_OF[operation]!;
      const key = await createTestKey(owner.id, { name: `all but ${needed}`, permissions: PERMISSIONS.filter((p) => p !== needed) });
      await changesNothing(async () => {
        const { path, ...request } = requestOf(route.method, route.template);
        const error = expectError(await call(path, { key, ...request }), 403, "INSUFFICIENT_PERMISSIONS");
        expect(error.message).toBe(`This API key lacks the ${needed} permission`);
      });
    },
  );

  it("read:blogs alone reads, and cannot create, change or delete", async () => {
    const readOnly = await createTestKey(owner.id, { name: "reader", permissions: ["read:blogs"] });
    expectSuccess(await call(`/blogs/${blogId}`, { key: readOnly }));
    await changesNothing(async () => {
      for (const route of REST_ROUTES.filter((r) => r.method !== "GET")) {
        const { path, ...request } = requestOf(route.method, route.template);
        expectError(await call(path, { key: readOnly, ...request }), 403, "INSUFFICIENT_PERMISSIONS");
      }
    });
  });
});

describe("the order of checks", () => {
  it("refuses a missing permission before counting: 403s consume nothing, and come before 429", async () => {
    const account = await createTestAccount("free");
    const [blog] = await seedBlogs(account.id, [{ title: "Counted" }]);
    const reader = await createTestKey(account.id, { name: "reader", permissions: ["read:blogs"] });
    const write = () => call(`/blogs/${blog}`, { key: reader, method: "DELETE" });

    const first = await write();
    expectError(first, 403, "INSUFFICIENT_PERMISSIONS");
    const { limit, remaining } = rateLimitHeaders(first);
    expect(limit).toBe(100);
    for (let i = 0; i < 5; i++) expect(rateLimitHeaders(await write()).remaining).toBe(remaining);
    const read = await call("/blogs", { key: reader });
    expectSuccess(read);
    expect(rateLimitHeaders(read).remaining).toBe(remaining - 1);

    // Spend the rest of the hour's budget: reads are now 429, a write the key may not make is still 403.
    for (let left = remaining - 1; left > 0; left -= 10) {
      await Promise.all(Array.from({ length: Math.min(10, left) }, () => call("/blogs", { key: reader })));
    }
    expectError(await call("/blogs", { key: reader }), 429, "RATE_LIMIT_EXCEEDED");
    expectError(await write(), 403, "INSUFFICIENT_PERMISSIONS");
    expect(await db().blog.count({ where: { id: blog } })).toBe(1);
  });
});
