import { connect, type Socket } from "node:net";
import { beforeAll, describe, expect, it } from "vitest";
import { apiBaseUrl, call, createTestAccount, type TestAccount } from "../support/api";
import { expectError, rateLimitHeaders } from "./expect";

let account: TestAccount;

beforeAll(async () => {
  account = await createTestAccount();
});

describe("the /api/v1 surface (README, Architecture)", () => {
  it.each(["/nope", "/blogs/x/y/z", "/", "/analytics-x"])("answers an unknown path %s with 404 RESOURCE_NOT_FOUND", async (path) => {
    expectError(await call(path, { key: account.key }), 404, "RESOURCE_NOT_FOUND");
  });

  it("reports the account's rate-limit state on answers no operation gives, without consuming it", async () => {
    const before = rateLimitHeaders(await call("/blogs", { key: account.key }));
    const answers = [
      await call("/nope", { key: account.key }),
      await call("/blogs", { key: account.key, method: "DELETE" }),
      await call("/openapi.json", { key: account.key }),
    ];
    expect(answers.map((r) => r.status)).toEqual([404, 405, 200]);
    for (const answer of answers) expect(rateLimitHeaders(answer)).toEqual(before);
  });

  it("counts an operation's request past key and permission whatever its body (415, malformed JSON)", async () => {
    const before = rateLimitHeaders(await call("/blogs", { key: account.key }));
    const notJson = await call("/blogs", { key: account.key, method: "POST", body: "{}", headers: { "content-type": "text/plain" } });
    const malformed = await call("/blogs", { key: account.key, method: "POST", body: "{", headers: { "content-type": "application/json" } });
    expect([notJson.status, malformed.status]).toEqual([415, 400]);
    expect(rateLimitHeaders(notJson)).toEqual({ ...before, remaining: before.remaining - 1 });
    expect(rateLimitHeaders(malformed)).toEqual({ ...before, remaining: before.remaining - 2 });
  });

  it("answers a known path with the wrong method with 405 and Allow", async () => {
    const response = await call("/blogs", { key: account.key, method: "DELETE" });
    expectError(response, 405, "METHOD_NOT_ALLOWED");
    expect(response.headers.get("allow")).toContain("GET");
    const doc = await call("/openapi.json", { method: "POST", body: "{}", headers: { "content-type": "application/json" } });
    expectError(doc, 405, "METHOD_NOT_ALLOWED");
    expect(doc.headers.get("allow")).toBe("GET");
  });

  it("gives every response a distinct X-Request-Id", async () => {
    const ids = await Promise.all([call("/blogs", { key: account.key }), call("/blogs"), call("/nope")]).then((rs) =>
      rs.map((r) => r.headers.get("x-request-id")),
    );
    expect(ids.every(Boolean)).toBe(true);
    expect(new Set(ids).size).toBe(3);
  });

  it("answers CORS preflights and exposes its headers to any origin", async () => {
    const preflight = await fetch(new URL("/api/v1/blogs", apiBaseUrl()), {
      method: "OPTIONS",
      headers: { origin: "https://example.com", "access-control-request-method": "GET", "access-control-request-headers": "x-api-key" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    expect(preflight.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("x-api-key");
    const response = await call("/blogs", { key: account.key, headers: { origin: "https://example.com" } });
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("access-control-expose-headers")).toContain("X-RateLimit-Remaining");
  });

  it("serves JSON with a content type on success and error alike", async () => {
    for (const response of [await call("/blogs", { key: account.key }), await call("/blogs")]) {
      expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    }
  });
});

describe("connections kept alive", () => {
  /** Writes one GET on `socket` and resolves with the head of what comes back within `ms` ("" if the socket closed first). */
  const exchange = (socket: Socket, ms: number) =>
    new Promise<string>((resolve) => {
      let received = "";
      const onData = (chunk: Buffer) => (received += chunk.toString("latin1"));
      socket.on("data", onData);
      socket.write(`GET /api/v1/openapi.json HTTP/1.1\r\nHost: ${new URL(apiBaseUrl()).host}\r\n\r\n`);
      setTimeout(() => (socket.off("data", onData), resolve(received.split("\r\n\r\n")[0]!)), ms);
    });

  it("stay open longer than a balancer keeps its idle ones (60 s): a request sent after 6 s idle is answered", async () => {
    const { hostname, port } = new URL(apiBaseUrl());
    const socket = connect(Number(port), hostname);
    await new Promise((resolve) => socket.once("connect", resolve));
    let closedAt: number | undefined;
    socket.on("close", () => (closedAt = Date.now()));
    try {
      expect(await exchange(socket, 1_000)).toMatch(/^HTTP\/1\.1 200 .*keep-alive: timeout=65/is);
      // Idle past the 5 s Node closes at by default, at which a balancer's next request on it was lost.
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      expect(closedAt).toBeUndefined();
      expect(await exchange(socket, 1_000)).toMatch(/^HTTP\/1\.1 200 /);
    } finally {
      socket.destroy();
    }
  });
});

describe("GET /api/v1/openapi.json", () => {
  it("describes the API from the same procedures, with security schemes and error envelopes", async () => {
    const response = await call("/openapi.json");
    expect(response.status).toBe(200);
    const doc = response.body as any;
    expect(doc.openapi).toMatch(/^3\./);
    // No public origin is configured here: the server is relative to the document (README, Security).
    expect(doc.servers).toEqual([{ url: "/api/v1" }]);
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(["ApiKeyHeader", "ApiKeyQuery", "BearerAuth"]);
    const list = doc.paths["/blogs"].get;
    const queryParameters = list.parameters.filter((p: { in?: string }) => p.in === "query");
    expect(queryParameters.map((p: { name: string }) => p.name).sort()).toEqual(["cursor", "from", "limit", "page", "public", "q", "sort", "status", "tag", "to"]);
    // Besides the query, a GET takes the conditional request header (README, The API).
    expect(list.parameters).toContainEqual({ $ref: "#/components/parameters/IfNoneMatch" });
    expect(doc.components.schemas.Pagination.required).toContain("nextCursor");
    const limit = list.parameters.find((p: { name: string }) => p.name === "limit");
    expect(limit.schema).toMatchObject({ type: "integer", minimum: 1, maximum: 50, default: 10 });
    expect(Object.keys(list.responses).sort()).toEqual(["200", "304", "400", "401", "403", "405", "429", "500", "503"]);
    expect(Object.keys(list.responses["401"].content["application/json"].examples).sort()).toEqual(["INVALID_API_KEY", "MISSING_API_KEY"]);
    expect(list.responses["200"].headers).toHaveProperty("X-RateLimit-Reset");
    expect(doc.components.schemas.ErrorEnvelope.required).toEqual(["success", "error"]);
    expect(doc.components.schemas.Blog.required).toContain("allowApiAccess");
  });

  it("needs no key", async () => {
    expect((await call("/openapi.json")).status).toBe(200);
  });
});
