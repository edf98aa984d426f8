import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startProductionServer, type RunningServer } from "../../scripts/lib/next-server";
import { serverLogFile } from "../support/server-logs";
import { createTestAccount, type TestAccount } from "../support/api";
import { startTcpProxy, type TcpProxy } from "../support/tcp-proxy";
import { rateLimitHeaders } from "./expect";

/** Servers of the same build whose database or rate-limit store cannot be reached. */
let databaseDown: RunningServer;
let storeDown: RunningServer;
let account: TestAccount;

beforeAll(async () => {
  account = await createTestAccount("free");
  [databaseDown, storeDown] = await Promise.all([
    startProductionServer({ ...process.env, DATABASE_URL: "postgresql://postgres@127.0.0.1:1/none" }, { logFile: serverLogFile() }),
    startProductionServer({ ...process.env, REDIS_URL: "redis://127.0.0.1:1", UPSTASH_REDIS_REST_URL: "" }, { logFile: serverLogFile() }),
  ]);
  // A server's first API request loads its modules (over a second on a busy machine): not what is timed here.
  await Promise.all([databaseDown, storeDown].map((server) => get(server.baseUrl, account.key)));
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

describe.skipIf(!process.env.REDIS_URL)("when the connection to the rate-limit store is cut mid-request", () => {
  let redisProxy: TcpProxy;
  let storeThroughProxy: RunningServer;

  beforeAll(async () => {
    const { hostname, port } = new URL(process.env.REDIS_URL!);
    redisProxy = await startTcpProxy({ host: hostname, port: Number(port || 6379) });
    storeThroughProxy = await startProductionServer(
      { ...process.env, REDIS_URL: redisProxy.urlThrough(process.env.REDIS_URL!), UPSTASH_REDIS_REST_URL: "" },
      { logFile: serverLogFile() },
    );
    await get(storeThroughProxy.baseUrl, account.key); // loads its modules, as above
  }, 120_000);

  afterAll(async () => {
    storeThroughProxy?.stop();
    await redisProxy?.close();
  });

  const remainingAfter = async () => {
    const { response, ms } = await get(storeThroughProxy.baseUrl, account.key);
    expect(response.status).toBe(200);
    expect(ms).toBeLessThan(1000);
    return rateLimitHeaders({ headers: response.headers } as never).remaining;
  };

  it("serves every request within a second while it is cut, and limits again once it is back", async () => {
    const before = await remainingAfter();
    expect(await remainingAfter()).toBe(before - 1);

    // The limiter's script call is on its way when the connection drops.
    let cutAt: string | undefined;
    void redisProxy.cutWhen((chunk) => /evalsha|eval/i.test(chunk.text)).then((chunk) => (cutAt = chunk.text));
    expect(await remainingAfter()).toBe(100); // served unlimited (fail open)
    expect(cutAt).toBeDefined();
    for (let i = 0; i < 3; i++) expect(await remainingAfter()).toBe(100);

    redisProxy.restore();
    const deadline = Date.now() + 10_000;
    let remaining = await remainingAfter();
    while (remaining === 100 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      remaining = await remainingAfter();
    }
    expect(remaining).toBeLessThan(before - 1);
    expect(await remainingAfter()).toBe(remaining - 1);
  });
});
