import { describe, expect, it } from "vitest";
import { call, createTestAccount, createTestKey } from "../support/api";
import { expectError, expectSuccess, nextHourBoundarySeconds, rateLimitHeaders } from "./expect";

/** The IETF fields as their structured-field syntax writes them, parsed back (README, The API). */
function ietfFields(response: Awaited<ReturnType<typeof call>>) {
  const policy = /^"([a-z]+)";q=(\d+);w=(\d+)$/.exec(response.headers.get("ratelimit-policy") ?? "");
  const state = /^"([a-z]+)";r=(\d+);t=(\d+)$/.exec(response.headers.get("ratelimit") ?? "");
  expect(policy, response.headers.get("ratelimit-policy") ?? "no RateLimit-Policy").not.toBeNull();
  expect(state, response.headers.get("ratelimit") ?? "no RateLimit").not.toBeNull();
  return {
    policy: { name: policy![1], quota: Number(policy![2]), window: Number(policy![3]) },
    state: { name: state![1], remaining: Number(state![2]), resetSeconds: Number(state![3]) },
    used: Number(response.headers.get("x-ratelimit-used")),
  };
}

/** Seconds from now until the X- reset, as RateLimit's `t` says it (one second of slack for the clock). */
function expectResetAgrees(response: Awaited<ReturnType<typeof call>>, resetSeconds: number) {
  expect(Math.abs(rateLimitHeaders(response).reset - Date.now() / 1000 - resetSeconds)).toBeLessThanOrEqual(2);
}

describe("standard rate-limit fields next to the spec's (README, The API)", () => {
  it("adds X-RateLimit-Used, RateLimit-Policy and RateLimit, agreeing with the X- fields", async () => {
    const account = await createTestAccount("free");
    await call("/blogs", { key: account.key });
    const response = await call("/blogs", { key: account.key });
    expectSuccess(response);
    expect(rateLimitHeaders(response)).toEqual({ limit: 100, remaining: 98, reset: nextHourBoundarySeconds() });
    const fields = ietfFields(response);
    expect(fields).toMatchObject({ policy: { name: "free", quota: 100, window: 3600 }, state: { name: "free", remaining: 98 }, used: 2 });
    expect(fields.state.resetSeconds).toBeLessThanOrEqual(3600);
    expectResetAgrees(response, fields.state.resetSeconds);
  });

  it("names the plan as the policy and gives its quota", async () => {
    const account = await createTestAccount("pro");
    const fields = ietfFields(await call("/blogs", { key: account.key }));
    expect(fields).toMatchObject({ policy: { name: "pro", quota: 1000, window: 3600 }, state: { remaining: 999 }, used: 1 });
  });

  it("carries them on refusals that carry the X- fields: 400, 403, 404, 405, 429 and keyless 401", async () => {
    const account = await createTestAccount("free");
    const readOnly = await createTestKey(account.id, { permissions: ["read:blogs"] });
    const invalid = await call("/blogs?limit=0", { key: account.key });
    expectError(invalid, 400, "INVALID_PARAMETER");
    expect(ietfFields(invalid)).toMatchObject({ state: { name: "free", remaining: 99 }, used: 1 });
    const forbidden = await call("/blogs", { key: readOnly, method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expectError(forbidden, 403, "INSUFFICIENT_PERMISSIONS");
    expect(ietfFields(forbidden)).toMatchObject({ state: { remaining: 99 }, used: 1 });
    expect(ietfFields(expectErrorResponse(await call("/nowhere", { key: account.key }), 404))).toMatchObject({ used: 1 });
    expect(ietfFields(expectErrorResponse(await call("/openapi.json", { key: account.key, method: "POST" }), 405))).toMatchObject({ used: 1 });
    const keyless = await call("/blogs");
    expectError(keyless, 401, "MISSING_API_KEY");
    const keylessFields = ietfFields(keyless);
    expect(keylessFields.policy).toMatchObject({ name: "unauthenticated", quota: 100, window: 3600 });
    expect(keylessFields.used).toBe(rateLimitHeaders(keyless).limit - rateLimitHeaders(keyless).remaining);

    for (let i = 0; i < 99; i++) await call("/blogs", { key: account.key });
    const limited = await call("/blogs", { key: account.key });
    expectError(limited, 429, "RATE_LIMIT_EXCEEDED");
    const limitedFields = ietfFields(limited);
    expect(limitedFields).toMatchObject({ state: { name: "free", remaining: 0 }, used: 100 });
    expectResetAgrees(limited, limitedFields.state.resetSeconds);
  });

  it("exposes the new fields to browsers", async () => {
    const account = await createTestAccount("free");
    const exposed = (await call("/blogs", { key: account.key })).headers.get("access-control-expose-headers") ?? "";
    for (const name of ["X-RateLimit-Used", "RateLimit-Policy", "RateLimit"]) expect(exposed.split(", ")).toContain(name);
  });
});

describe("GET /rate_limit (README, The API)", () => {
  it("reports plan, limit, used, remaining and reset to any valid key, without consuming", async () => {
    const account = await createTestAccount("free");
    const analyticsOnly = await createTestKey(account.id, { permissions: ["read:analytics"] });
    await call("/blogs", { key: account.key });
    for (const key of [account.key, analyticsOnly, account.key]) {
      const response = await call("/rate_limit", { key });
      const data = expectSuccess(response);
      expect(data).toEqual({ plan: "free", limit: 100, used: 1, remaining: 99, reset: nextHourBoundarySeconds() });
      expect(rateLimitHeaders(response)).toEqual({ limit: 100, remaining: 99, reset: data.reset });
      expect(ietfFields(response)).toMatchObject({ policy: { name: "free", quota: 100, window: 3600 }, state: { remaining: 99 }, used: 1 });
    }
    expect(rateLimitHeaders(await call("/blogs", { key: account.key })).remaining).toBe(98);
  });

  it("answers even when the budget is spent", async () => {
    const account = await createTestAccount("free");
    await Promise.all(Array.from({ length: 101 }, () => call("/blogs", { key: account.key })));
    expect(expectSuccess(await call("/rate_limit", { key: account.key }))).toMatchObject({ used: 100, remaining: 0 });
  });

  it("refuses a missing or invalid key with 401, and other methods with 405", async () => {
    const account = await createTestAccount("free");
    expectError(await call("/rate_limit"), 401, "MISSING_API_KEY");
    expectError(await call("/rate_limit", { key: `${account.key}x` }), 401, "INVALID_API_KEY");
    const post = await call("/rate_limit", { key: account.key, method: "POST" });
    expectError(post, 405, "METHOD_NOT_ALLOWED");
    expect(post.headers.get("allow")).toBe("GET");
  });
});

function expectErrorResponse(response: Awaited<ReturnType<typeof call>>, status: number) {
  expect(response.status).toBe(status);
  return response;
}
