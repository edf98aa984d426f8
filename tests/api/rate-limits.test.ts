import { describe, expect, it } from "vitest";
import { call, createTestAccount, createTestKey } from "../support/api";
import { expectError, expectSuccess, nextHourBoundarySeconds, rateLimitHeaders } from "./expect";

describe("rate limits per account and plan (README, The API)", () => {
  it("admits 100 requests an hour on the free plan and refuses the 101st", async () => {
    const account = await createTestAccount("free");
    for (let i = 1; i <= 100; i++) {
      const response = await call("/blogs", { key: account.key });
      expectSuccess(response);
      expect(rateLimitHeaders(response)).toMatchObject({ limit: 100, remaining: 100 - i });
    }
    const refused = await call("/blogs", { key: account.key });
    const error = expectError(refused, 429, "RATE_LIMIT_EXCEEDED");
    const reset = rateLimitHeaders(refused);
    expect(reset).toMatchObject({ limit: 100, remaining: 0 });
    expect(reset.reset).toBe(nextHourBoundarySeconds());
    const resetIso = new Date(reset.reset * 1000).toISOString();
    expect(error.details).toBe(`Hourly limit of 100 requests exceeded; the limit resets at ${resetIso}`);
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(Math.abs(Date.now() / 1000 + retryAfter - reset.reset)).toBeLessThan(3);
  });

  it("admits exactly the remaining budget out of 200 concurrent requests", async () => {
    const account = await createTestAccount("free");
    const responses = await Promise.all(Array.from({ length: 200 }, () => call("/blogs", { key: account.key })));
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(100);
    expect(statuses.filter((s) => s === 429)).toHaveLength(100);
    expect(responses.every((r) => rateLimitHeaders(r).remaining >= 0)).toBe(true);
  });

  it("shares one budget between the keys of an account, separate from other accounts", async () => {
    const account = await createTestAccount("free");
    const secondKey = await createTestKey(account.id);
    const stranger = await createTestAccount("free");
    await call("/blogs", { key: account.key });
    await call("/blogs", { key: account.key });
    expect(rateLimitHeaders(await call("/blogs", { key: secondKey })).remaining).toBe(97);
    expect(rateLimitHeaders(await call("/blogs", { key: stranger.key })).remaining).toBe(99);
  });

  it("counts requests that fail validation, not those that fail authentication", async () => {
    const account = await createTestAccount("free");
    expectError(await call("/blogs?limit=0", { key: account.key }), 400, "INVALID_PARAMETER");
    expectError(await call("/blogs", { key: `${account.key}x` }), 401, "INVALID_API_KEY");
    expect(rateLimitHeaders(await call("/blogs", { key: account.key })).remaining).toBe(98);
  });

  it.each([
    ["pro", 1000],
    ["enterprise", 10000],
  ] as const)("reports the %s plan's hourly limit of %i", async (plan, limit) => {
    const account = await createTestAccount(plan);
    const response = await call("/blogs", { key: account.key });
    expect(rateLimitHeaders(response)).toEqual({ limit, remaining: limit - 1, reset: nextHourBoundarySeconds() });
  });
});
