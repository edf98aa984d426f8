import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startProductionServer, type RunningServer } from "../../scripts/lib/next-server";
import { serverLogFile } from "../support/server-logs";
import { expectError, expectSuccess } from "../api/expect";
import { call, createTestAccount, db, type ApiResponse, type TestAccount } from "../support/api";
import * as fixtures from "./fixtures";

/**
 * Upload fairness (docs/security.md, Upload fairness), over HTTP against a production server of the
 * test's own, whose debug log says when the processor starts and abandons an upload: one account's
 * heavy animation does not hold up another's small upload, an account without room is refused
 * before any processing, an account's queue is bounded by the cost of what it holds (pixels ×
 * frames), and an upload whose client went away stops being processed.
 */
let server: RunningServer;
const output: string[] = [];
let heavy: Buffer;
let small: Buffer;

beforeAll(async () => {
  [server, heavy, small] = await Promise.all([
    startProductionServer({ ...process.env, WEBHOOK_WORKER: "0", LOG_LEVEL: "debug" }, { logFile: serverLogFile(), onOutput: (chunk) => output.push(chunk.toString()) }),
    fixtures.heavyAnimation(),
    fixtures.png(),
  ]);
}, 60_000);

afterAll(() => server?.stop());

const upload = (account: TestAccount, bytes: Buffer) =>
  call("/images", { key: account.key, method: "POST", headers: { "content-type": "application/octet-stream" }, body: bytes as never, baseUrl: server.baseUrl });

/** The server's log lines with this message about this account, as parsed JSON. */
const logLines = (message: string, accountId: string) =>
  output
    .join("")
    .split("\n")
    .filter((line) => line.includes(message) && line.includes(accountId))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

/** Resolves once the server has logged this message about this account; fails after a minute without it. */
async function logged(message: string, accountId: string): Promise<void> {
  for (const deadline = Date.now() + 60_000; logLines(message, accountId).length === 0; await new Promise((resolve) => setTimeout(resolve, 50))) {
    if (Date.now() > deadline) throw new Error(`the server never logged "${message}" for ${accountId}`);
  }
}

/** Settles with the order answers arrive in: each promise's label once it resolves. */
function arrivalOrder(calls: Record<string, Promise<ApiResponse>>): { order: string[]; answers: Promise<Record<string, ApiResponse>> } {
  const order: string[] = [];
  const entries = Object.entries(calls).map(async ([label, answer]) => {
    const settled = await answer;
    order.push(label);
    return [label, settled] as const;
  });
  return { order, answers: Promise.all(entries).then(Object.fromEntries) };
}

describe("upload fairness", () => {
  it("another account's small upload is processed while a heavy animation still is", async () => {
    const [heavyAccount, smallAccount] = await Promise.all([createTestAccount(), createTestAccount()]);
    const heavyUpload = upload(heavyAccount, heavy);
    await logged("image processing started", heavyAccount.id);
    const { order, answers } = arrivalOrder({ heavy: heavyUpload, small: upload(smallAccount, small) });
    const { heavy: heavyAnswer, small: smallAnswer } = await answers;
    expectSuccess(smallAnswer!, 201);
    expectSuccess(heavyAnswer!, 201);
    expect(order).toEqual(["small", "heavy"]);
  }, 120_000);

  it("an account without room left is refused at once, not after processing, even behind a heavy upload", async () => {
    const [busyAccount, fullAccount] = await Promise.all([createTestAccount(), createTestAccount("free")]);
    await db().image.create({ data: { userId: fullAccount.id, width: 1, height: 1, format: "png", bytes: 1, storedBytes: 100_000_000, fileName: "full.png" } });
    const busy = upload(busyAccount, heavy);
    await logged("image processing started", busyAccount.id);
    const { order, answers } = arrivalOrder({ busy, full: upload(fullAccount, heavy) });
    const { busy: busyAnswer, full: fullAnswer } = await answers;
    expectError(fullAnswer!, 413, "QUOTA_EXCEEDED");
    expectSuccess(busyAnswer!, 201);
    expect(order).toEqual(["full", "busy"]);
    expect(logLines("image processing started", fullAccount.id)).toEqual([]);
  }, 120_000);

  it("an account's uploads waiting past four heavy animations' cost are refused with 429 and Retry-After", async () => {
    const account = await createTestAccount();
    const answers = await Promise.all(Array.from({ length: 5 }, () => upload(account, heavy)));
    const refused = answers.filter((answer) => answer.status === 429);
    expect(refused).toHaveLength(1);
    expectError(refused[0]!, 429, "RATE_LIMIT_EXCEEDED");
    expect(Number(refused[0]!.headers.get("retry-after"))).toBeGreaterThan(0);
    // The same bytes, processed one after the other: one image, then answered as it (docs/images.md).
    const accepted = answers.filter((answer) => answer.status !== 429);
    expect(accepted.map((answer) => answer.status).sort()).toEqual([200, 200, 200, 201]);
    expect(new Set(accepted.map((answer) => expectSuccess(answer, answer.status).image.id)).size).toBe(1);
    expect(await db().image.count({ where: { userId: account.id } })).toBe(1);
  }, 240_000);

  it("a client that goes away mid-processing: the work stops, nothing is stored, the next upload is served", async () => {
    const account = await createTestAccount();
    const url = new URL("/api/v1/images", server.baseUrl);
    const cut = request(url, { method: "POST", headers: { "x-api-key": account.key, "content-type": "image/gif", "content-length": heavy.length } });
    cut.on("error", () => undefined);
    cut.end(heavy);
    await logged("image processing started", account.id);
    cut.destroy();
    await logged("image processing abandoned", account.id);
    expect(logLines("image processing abandoned", account.id)[0]).toMatchObject({ accountId: account.id, running: true });
    expectSuccess(await upload(account, small), 201);
    // A client going away is no failure of the server's: nothing is logged as an error.
    expect(output.join("").split("\n").filter((line) => line.includes('"level":"error"'))).toEqual([]);
    expect(await db().image.count({ where: { userId: account.id } })).toBe(1);
  }, 120_000);
});
