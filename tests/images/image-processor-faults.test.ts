import { readdirSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startProductionServer, type RunningServer } from "../../scripts/lib/next-server";
import { serverLogFile } from "../support/server-logs";
import { expectError, expectSuccess } from "../api/expect";
import { call, createTestAccount, db, type TestAccount } from "../support/api";
import * as fixtures from "./fixtures";

/**
 * The production server processes uploads in a child process at the lowest priority
 * (docs/images.md, Processing). When that process dies mid-upload, the upload is a 500 that stores
 * nothing, and the next one gets a new processor. A server of the test's own, to kill its child.
 */
let server: RunningServer;
let account: TestAccount;

beforeAll(async () => {
  [server, account] = await Promise.all([startProductionServer({ ...process.env, WEBHOOK_WORKER: "0" }, { logFile: serverLogFile() }), createTestAccount()]);
}, 60_000);

afterAll(() => server?.stop());

const upload = (body: Buffer) => call("/images", { key: account.key, method: "POST", headers: { "content-type": "image/jpeg" }, body: body as never, baseUrl: server.baseUrl });

/** A /proc file's text; "" when its process has gone meanwhile. */
function procText(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}

/** A process's /proc stat fields after the command's ")": state, ppid, … utime is the 12th, nice the 17th. */
const statFields = (pid: number | string) => {
  const stat = procText(`/proc/${pid}/stat`);
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
};

/** The server's image processor: its child running image-worker.mjs, and its nice value (read from /proc). */
function processor(): { pid: number; nice: number } {
  for (const entry of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    const fields = statFields(entry);
    if (Number(fields[1]) === server.pid && procText(`/proc/${entry}/cmdline`).includes("image-worker.mjs")) return { pid: Number(entry), nice: Number(fields[16]) };
  }
  throw new Error(`no image processor under ${server.pid}`);
}

/** Once the process has used CPU since `ticks` (its user time, in clock ticks): at work. */
async function atWork(pid: number, ticks: number): Promise<void> {
  while (Number(statFields(pid)[11]) === ticks) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe("the image processor", () => {
  it("runs at the lowest priority; killed mid-upload, the upload is a 500 storing nothing and the next upload is processed anew", async () => {
    expectSuccess(await upload(await fixtures.cameraJpeg()), 201);
    const first = processor();
    expect(first.nice).toBe(19);

    const photo = await fixtures.photoJpeg(4000, 3000, 95);
    const idle = Number(statFields(first.pid)[11]);
    const interrupted = upload(photo);
    // Killed once it is at work on the photo, which takes it hundreds of milliseconds.
    await atWork(first.pid, idle);
    process.kill(first.pid, "SIGKILL");
    expectError(await interrupted, 500, "INTERNAL_SERVER_ERROR");
    expect(await db().image.count({ where: { userId: account.id } })).toBe(1);

    // Other bytes: the first ones again would be answered as the image already stored, unprocessed.
    expectSuccess(await upload(await fixtures.png()), 201);
    expect(processor().pid).not.toBe(first.pid);
    expect(await db().image.count({ where: { userId: account.id } })).toBe(2);
  });
});
