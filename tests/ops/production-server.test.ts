import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startProductionServer, type RunningServer } from "../../scripts/lib/next-server";

/**
 * The production server's two threads (src/server/http-server.ts, src/server/next-thread.ts): the
 * server hands pages to Next over a Unix socket in a directory only its user may enter, streams
 * the answers back, survives clients that leave mid-answer, and on SIGTERM stops both threads,
 * exits 0 and removes the directory.
 */

let server: RunningServer;
/** The server's TMPDIR, where it makes the socket's directory. */
let serverTmp: string;

beforeAll(async () => {
  serverTmp = await mkdtemp(join(tmpdir(), "production-server-test-"));
  server = await startProductionServer({ ...process.env, TMPDIR: serverTmp }, { quiet: true });
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await rm(serverTmp, { recursive: true, force: true });
});

/** A GET whose client hangs up as soon as the answer's head has arrived. */
function getAndHangUp(url: string): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    const sent = request(url, (answer) => {
      resolve(answer.statusCode);
      sent.destroy();
    });
    sent.on("error", (error) => (sent.destroyed ? undefined : reject(error)));
    sent.end();
  });
}

describe("the production server and Next's thread", () => {
  it("serves pages from Next over a socket in a directory only the server's user may enter", async () => {
    const page = await fetch(`${server.baseUrl}/sign-in`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toMatch(/'nonce-[^']+'/);
    expect(await page.text()).toContain("<html");

    const [socketDir, ...others] = await readdir(serverTmp);
    expect(others).toEqual([]);
    expect(socketDir).toMatch(/^blogmgr-/);
    expect((await stat(join(serverTmp, socketDir!))).mode & 0o777).toBe(0o700);
    expect(await readdir(join(serverTmp, socketDir!))).toEqual(["next.sock"]);
  });

  it("passes a page's redirect through, and goes on serving after clients hang up mid-answer", async () => {
    const redirect = await fetch(`${server.baseUrl}/dashboard/keys`, { redirect: "manual" });
    expect(redirect.status).toBe(307);
    expect(redirect.headers.get("location")).toContain("/sign-in");

    const statuses = await Promise.all(Array.from({ length: 10 }, () => getAndHangUp(`${server.baseUrl}/`)));
    expect(statuses).toEqual(Array(10).fill(200));
    expect((await fetch(`${server.baseUrl}/`)).status).toBe(200);
    expect((await fetch(`${server.baseUrl}/api/v1/openapi.json`)).status).toBe(200);
  });

  it("stops both threads on SIGTERM: exit code 0, the socket's directory removed", async () => {
    expect(await server.stop()).toBe(0);
    expect(await readdir(serverTmp)).toEqual([]);
  });
});
