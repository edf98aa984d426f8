import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startProductionServer, type RunningServer } from "../../scripts/lib/next-server";
import { createTestAccount, type TestAccount } from "../support/api";
import { rateLimitHeaders } from "./expect";

/** Servers of the same build whose database or rate-limit store cannot be reached. */
let databaseDown: RunningServer;
let storeDown: RunningServer;
let account: TestAccount;

beforeAll(async () => {
  account = await createTestAccount("free");
  [databaseDown, storeDown] = await Promise.all([
    startProductionServer({ ...process.env, DATABASE_URL: "postgresql://postgres@127.0.0.1:1/none" }, { quiet: true }),
    startProductionServer({ ...process.env, REDIS_URL: "redis://127.0.0.1:1", UPSTASH_REDIS_REST_URL: "" }, { quiet: true }),
  ]);
}, 120_000);

afterAll(() => {
  databaseDown?.stop();
  storeDown?.stop();
});

async function get(baseUrl: string, key?: string) {
  const started = performance.now();
  const response = await fetch(`${baseUrl}/api/v1/blogs`, { headers: key ? { "x-api-key": key } : {} });
  return { response, body: await response.json(), ms: performance.now() - started };
}

describe("when a backing service is down", () => {
  it("answers 503 SERVICE_UNAVAILABLE with Retry-After, no stack trace, when the database is unreachable", async () => {
    const { response, body } = await get(databaseDown.baseUrl, account.key);
    expect(response.status).toBe(503);
    expect(body).toEqual({ success: false, error: { code: "SERVICE_UNAVAILABLE", message: "Service temporarily unavailable" } });
    expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("serves requests within a second, reporting the plan's limit, when the rate-limit store is unreachable", async () => {
    for (let i = 0; i < 3; i++) {
      const { response, ms } = await get(storeDown.baseUrl, account.key);
      expect(response.status).toBe(200);
      expect(ms).toBeLessThan(1000);
      expect(rateLimitHeaders({ headers: response.headers } as never).limit).toBe(100);
    }
  });
});
