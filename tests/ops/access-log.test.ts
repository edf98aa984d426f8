import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startProductionServer, type RunningServer } from "../../scripts/lib/next-server";
import { serverLogFile } from "../support/server-logs";
import { createTestAccount, db, type TestAccount } from "../support/api";

/**
 * The production server's log: JSON lines, the request id on every line written while a request
 * is served, one access line per /api/v1 request, and never the key. Its rate-limit store is
 * unreachable, so a request also writes an error line (the store failing open) of its own.
 */

let server: RunningServer;
let output = "";
let account: TestAccount;
let keyId: string;

beforeAll(async () => {
  account = await createTestAccount("free");
  keyId = (await db().apiKey.findFirstOrThrow({ where: { userId: account.id } })).id;
  server = await startProductionServer(
    { ...process.env, REDIS_URL: "redis://127.0.0.1:1", UPSTASH_REDIS_REST_URL: "" },
    { logFile: serverLogFile(), onOutput: (chunk) => (output += chunk.toString()) },
  );
}, 120_000);

afterAll(() => server?.stop());

interface LogLine {
  level: string;
  msg: string;
  requestId?: string;
  [field: string]: unknown;
}

/** The JSON lines of the server's output so far that carry `requestId`. */
async function linesOf(requestId: string): Promise<LogLine[]> {
  // The access line is written right after the response: give the pipe a moment.
  await new Promise((resolve) => setTimeout(resolve, 200));
  return output
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as LogLine)
    .filter((line) => line.requestId === requestId);
}

describe("the production server's log", () => {
  it("tags every line of a request with its X-Request-Id and ends it with one access line: method, route template, status, duration, key id", async () => {
    const response = await fetch(`${server.baseUrl}/api/v1/blogs?limit=5&api_key=${account.key}`);
    expect(response.status).toBe(200);
    const requestId = response.headers.get("x-request-id")!;
    const lines = await linesOf(requestId);
    expect(lines.map((line) => line.msg)).toEqual(["rate-limit store unavailable; serving requests without limits", "request"]);
    expect(lines[1]).toMatchObject({ level: "info", method: "GET", route: "/blogs", status: 200, keyId });
    expect(lines[1]!.durationMs).toEqual(expect.any(Number));
  });

  it("logs unmatched paths without the path or query, and requests with a bad key without a key id", async () => {
    const unknown = await fetch(`${server.baseUrl}/api/v1/${account.key}?api_key=${account.key}`);
    expect(unknown.status).toBe(404);
    expect(await linesOf(unknown.headers.get("x-request-id")!)).toEqual([
      expect.objectContaining({ msg: "request", method: "GET", route: null, status: 404, keyId: null }),
    ]);
    // The key with its last character changed (a key ending in "x" would stay valid with "x").
    const wrongKey = account.key.slice(0, -1) + (account.key.endsWith("x") ? "y" : "x");
    const badKey = await fetch(`${server.baseUrl}/api/v1/blogs/some-id`, { headers: { "x-api-key": wrongKey } });
    expect(badKey.status).toBe(401);
    expect(await linesOf(badKey.headers.get("x-request-id")!)).toEqual([
      expect.objectContaining({ msg: "request", route: "/blogs/{blogId}", status: 401, keyId: null }),
    ]);
  });

  it("never holds the key or an api_key query", () => {
    expect(output).not.toContain(account.key);
    expect(output).not.toContain(account.key.slice(0, -1));
    expect(output).not.toContain("api_key=");
  });
});
