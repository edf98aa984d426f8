import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startProductionServer, type RunningServer } from "../../scripts/lib/next-server";
import { serverLogFile } from "../support/server-logs";
import { createTestAccount, db, seedBlogs, type TestAccount } from "../support/api";
import { startTcpProxy, type TcpProxy } from "../support/tcp-proxy";

/**
 * The public pages' cache when the database goes away (docs/public-blog.md, The cache): a second
 * production server whose database connections, the change listener's among them, run through a
 * proxy the test cuts. Readers keep the pages already made; a change written meanwhile (plain
 * SQL, whose notice the server cannot hear) shows once the database is back, well within 60 s;
 * the listener comes back and is trusted again.
 */
let proxy: TcpProxy;
let server: RunningServer;
let account: TestAccount;
let blogId: string;
let path: string;

beforeAll(async () => {
  const databaseUrl = process.env.DATABASE_URL!;
  const { hostname, port } = new URL(databaseUrl);
  proxy = await startTcpProxy({ host: hostname, port: Number(port || 5432) }, "postgres");
  server = await startProductionServer({ ...process.env, DATABASE_URL: proxy.urlThrough(databaseUrl) }, { logFile: serverLogFile() });
  account = await createTestAccount();
  [blogId] = (await seedBlogs(account.id, [{ blogSlug: "through-faults", isPublic: true, title: "Before the cut", content: "First words" }])) as [string];
  path = `${server.baseUrl}/${account.handle}/through-faults`;
}, 120_000);

afterAll(async () => {
  server?.stop();
  await proxy?.close();
});

async function read(): Promise<{ status: number; cache: string | null; body: string }> {
  const response = await fetch(path);
  return { status: response.status, cache: response.headers.get("x-cache"), body: await response.text() };
}

describe("the public page cache through a cut database connection", () => {
  it("serves kept pages while the database is unreachable, shows a change made meanwhile once it is back, and trusts its listener again", async () => {
    await expect.poll(async () => (await read()).cache, { timeout: 15_000, interval: 200 }).toBe("HIT");

    // Every connection dies at the next statement, which a page nobody asked for yet sends.
    const cut = proxy.cutWhen(() => true);
    const unseen = await fetch(`${server.baseUrl}/${account.handle}/never-read`);
    await cut;
    expect(unseen.status).toBe(503);
    expect(unseen.headers.get("retry-after")).toBe("5");

    // The listener is gone with its connection: the page is checked, which fails, and the kept one is served.
    await expect.poll(async () => (await read()).cache, { timeout: 10_000, interval: 100 }).toBe("STALE");
    const stale = await read();
    expect(stale.status).toBe(200);
    expect(stale.body).toContain("First words");

    // A writer the server cannot hear from: its notice is lost with the listener's connection.
    await db().$executeRaw`UPDATE "blog" SET "content" = 'Written during the cut' WHERE "id" = ${blogId}`;
    proxy.restore();
    const restoredAt = Date.now();
    await expect.poll(async () => (await read()).body, { timeout: 60_000, interval: 200 }).toContain("Written during the cut");
    expect(Date.now() - restoredAt).toBeLessThan(60_000);

    // The listener reconnects and proves itself: hits need the database no more, and the next change shows at once.
    await expect.poll(async () => (await read()).cache, { timeout: 30_000, interval: 200 }).toBe("HIT");
    await db().$executeRaw`UPDATE "blog" SET "content" = 'After the listener came back' WHERE "id" = ${blogId}`;
    await expect.poll(async () => (await read()).body, { timeout: 5_000, interval: 50 }).toContain("After the listener came back");
  }, 150_000);
});
