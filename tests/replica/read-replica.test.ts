import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, startProductionServer, type RunningServer } from "../../scripts/lib/next-server";
import { serverLogFile } from "../support/server-logs";
import { giveToPostgresUser, runsAsRoot } from "../../scripts/lib/postgres-user";
import { createAccount } from "~/server/accounts/create-account";
import { applyMigrations } from "~/server/db/migrate";
import { createApiKey } from "~/server/keys/create-api-key";
import { PrismaClient } from "~/generated/prisma/client";
import { PERMISSIONS } from "~/shared/permissions";

/**
 * Read replicas (docs/read-replicas.md) against a real streaming standby. The local cluster's
 * pg_hba.conf admits no replication connection (and a test may not change it), so the test makes
 * a primary of its own (initdb, trust and replication allowed by initdb's defaults), takes a
 * pg_basebackup of it and starts it as a hot standby, both as the `postgres` OS user when run as
 * root (PostgreSQL refuses root), with pg_stat_statements loaded: which server ran the public
 * site's and the analytics' statements is counted there. A production server of the test's own
 * runs on them with DATABASE_REPLICA_URLS set.
 */
const run = promisify(execFile);
const BIN = "/usr/lib/postgresql/15/bin";
const asPostgres = (command: string, args: string[]) =>
  runsAsRoot() ? run("runuser", ["-u", "postgres", "--", join(BIN, command), ...args]) : run(join(BIN, command), args);

let dir: string | undefined;
const started: string[] = [];
let server: RunningServer | undefined;
let primary: pg.Pool;
let standby: pg.Pool;
let appDb: PrismaClient;
let handle: string;
let key: string;
let blogId: string;
let baseUrl: string;

async function startCluster(dataDir: string, port: number): Promise<string> {
  // Throwaway clusters: no fsync.
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c shared_preload_libraries=pg_stat_statements -c fsync=off`;
  await asPostgres("pg_ctl", ["-D", dataDir, "-o", options, "-l", `${dataDir}.log`, "-w", "start"]);
  started.push(dataDir);
  return `postgresql://postgres@127.0.0.1:${port}/postgres`;
}

const one = async <Row>(pool: pg.Pool, sql: string, params: unknown[] = []) => (await pool.query(sql, params)).rows[0] as Row;
/** Calls so far, on that server, of the statements whose text matches (pg_stat_statements). */
const calls = async (pool: pg.Pool, pattern: string) =>
  Number((await one<{ n: string }>(pool, "SELECT coalesce(sum(calls), 0) AS n FROM pg_stat_statements WHERE query LIKE $1", [pattern])).n);
/** The public site's statements on "blog" (src/server/blogs/public-blogs.ts; Prisma's statements name it "public"."blog"). */
const PUBLIC_READS = '%FROM "blog"%';
const ANALYTICS_READS = '%"usage_daily"%GROUP BY%';

async function caughtUp(): Promise<void> {
  const { lsn } = await one<{ lsn: string }>(primary, "SELECT pg_current_wal_lsn()::text AS lsn");
  await expect
    .poll(async () => (await one<{ ok: boolean }>(standby, "SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS ok", [lsn])).ok, { timeout: 15_000, interval: 50 })
    .toBe(true);
}

/** Polls until `check` holds (expect.poll is for tests, not hooks). */
async function until(what: string, check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !(await check()); await new Promise((resolve) => setTimeout(resolve, 100))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
  }
}

const api = (path: string, init: RequestInit = {}) =>
  fetch(`${baseUrl}/api/v1${path}`, { ...init, headers: { "x-api-key": key, "content-type": "application/json", ...init.headers } });
const page = async (path: string) => {
  const response = await fetch(`${baseUrl}/${handle}${path}`);
  return { status: response.status, cache: response.headers.get("x-cache"), body: await response.text() };
};
async function writeContent(content: string): Promise<void> {
  const response = await api(`/blogs/${blogId}`, { method: "PATCH", body: JSON.stringify({ content }) });
  expect(response.status).toBe(200);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "blogmgr-replica-"));
  await giveToPostgresUser([dir]);
  const [primaryPort, standbyPort] = [await freePort(), await freePort()];
  await asPostgres("initdb", ["-D", join(dir, "primary"), "-U", "postgres", "--auth=trust", "--no-sync"]);
  const primaryUrl = await startCluster(join(dir, "primary"), primaryPort);
  await asPostgres("pg_basebackup", ["-h", "127.0.0.1", "-p", String(primaryPort), "-U", "postgres", "-D", join(dir, "standby"), "-R", "-X", "stream", "-c", "fast"]);
  const standbyUrl = await startCluster(join(dir, "standby"), standbyPort);
  primary = new pg.Pool({ connectionString: primaryUrl, max: 2 });
  standby = new pg.Pool({ connectionString: standbyUrl, max: 2 });
  standby.on("error", () => {});
  await until("the standby streams", async () => (await one<{ status?: string }>(standby, "SELECT status FROM pg_stat_wal_receiver"))?.status === "streaming");

  await applyMigrations(primaryUrl);
  await primary.query("CREATE EXTENSION pg_stat_statements");
  appDb = new PrismaClient({ adapter: new PrismaPg({ connectionString: primaryUrl, max: 2 }) });
  const account = await createAccount(appDb, { email: "replica@example.test", password: "password-123", plan: "enterprise" });
  handle = account.handle;
  key = (await createApiKey(appDb, { accountId: account.id, name: "replica test", permissions: [...PERMISSIONS] })).key;

  server = await startProductionServer({ ...process.env, DATABASE_URL: primaryUrl, DATABASE_REPLICA_URLS: standbyUrl, WEBHOOK_WORKER: "0" }, { logFile: serverLogFile() });
  baseUrl = server.baseUrl;
  const created = await api("/blogs", { method: "POST", body: JSON.stringify({ title: "On the replica", content: "First words", isPublic: true, tags: ["lag"] }) });
  if (created.status !== 201) throw new Error(`POST /blogs answered ${created.status}: ${await created.text()}`);
  blogId = ((await created.json()) as { data: { blog: { id: string } } }).data.blog.id;
  // The change listener proves itself: answers are trusted (HIT), so replicas may serve refills.
  await until("the index page is a HIT", async () => (await page("")).cache === "HIT");
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await Promise.all([appDb?.$disconnect(), primary?.end(), standby?.end()]);
  for (const dataDir of started.reverse()) await asPostgres("pg_ctl", ["-D", dataDir, "-m", "immediate", "stop"]).catch(() => undefined);
  if (dir) await rm(dir, { recursive: true, force: true });
}, 60_000);

describe("read replicas (DATABASE_REPLICA_URLS)", () => {
  it("serves public pages, feeds and sitemaps from the replica when it has replayed every change", async () => {
    await caughtUp();
    const before = { standby: await calls(standby, PUBLIC_READS), primary: await calls(primary, PUBLIC_READS) };
    for (const path of ["/on-the-replica", "/feed.xml", "/sitemap.xml"]) {
      const read = await page(path);
      expect(read).toMatchObject({ status: 200, cache: "MISS" });
      expect(read.body).toContain(path === "/sitemap.xml" ? "on-the-replica" : "First words");
    }
    expect(await calls(standby, PUBLIC_READS)).toBeGreaterThanOrEqual(before.standby + 3);
    expect(await calls(primary, PUBLIC_READS)).toBe(before.primary);
  });

  it("with the replica's replay paused, shows a change at once, from the primary, and never an answer older than it", async () => {
    await standby.query("SELECT pg_wal_replay_pause()");
    await expect.poll(async () => (await one<{ state: string }>(standby, "SELECT pg_get_wal_replay_pause_state() AS state")).state).toBe("paused");
    const primaryReads = await calls(primary, PUBLIC_READS);

    const changedAt = performance.now();
    await writeContent("Written while replay is paused");
    const post = await page("/on-the-replica");
    const servedInMs = performance.now() - changedAt;
    expect(post).toMatchObject({ status: 200, cache: "MISS" });
    expect(post.body).toContain("Written while replay is paused");
    // Answers made before the change (the feed) and never made (the JSON feed) alike.
    for (const path of ["/feed.xml", "/feed.json"]) expect((await page(path)).body).toContain("Written while replay is paused");
    // The replica does not have it: the primary served it.
    expect((await one<{ content: string }>(standby, 'SELECT "content" FROM "blog" WHERE "id" = $1', [blogId])).content).toBe("First words");
    expect(await calls(primary, PUBLIC_READS)).toBeGreaterThan(primaryReads);

    // A writer other than this server (plain SQL, as the CLI): its notice makes the next answer the primary's too.
    await primary.query(`UPDATE "blog" SET "content" = 'Written by plain SQL' WHERE "id" = $1`, [blogId]);
    await expect.poll(async () => (await page("/on-the-replica")).body, { timeout: 5_000, interval: 20 }).toContain("Written by plain SQL");
    expect((await page("/atom.xml")).body).toContain("Written by plain SQL");
    console.info(`[replica] replay paused: the change served fresh ${servedInMs.toFixed(0)} ms after the API write began (write + page), from the primary`);

    await standby.query("SELECT pg_wal_replay_resume()");
    await caughtUp();
    // Caught up again, the replica serves the next refill.
    const standbyReads = await calls(standby, PUBLIC_READS);
    await writeContent("After replay resumed");
    await caughtUp();
    await expect.poll(async () => (await page("/on-the-replica")).body).toContain("After replay resumed");
    expect((await page("/atom.xml")).body).toContain("After replay resumed");
    expect(await calls(standby, PUBLIC_READS)).toBeGreaterThan(standbyReads);
  });

  it("reads analytics on the replica once it holds every earlier request", async () => {
    // The requests so far are written within the usage batch's second; then nothing is pending.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await caughtUp();
    const before = { standby: await calls(standby, ANALYTICS_READS), primary: await calls(primary, ANALYTICS_READS) };
    const response = await api("/analytics");
    expect(response.status).toBe(200);
    // Every API request so far: the blog's creation and the two changes through the API.
    const { data } = (await response.json()) as { data: { byEndpoint: unknown[] } };
    expect(data.byEndpoint).toEqual([
      { method: "PATCH", path: "/blogs/{blogId}", requests: 2 },
      { method: "POST", path: "/blogs", requests: 1 },
    ]);
    expect(await calls(standby, ANALYTICS_READS)).toBeGreaterThan(before.standby);
    expect(await calls(primary, ANALYTICS_READS)).toBe(before.primary);
  });

  it("answers from the primary when the replica is down", async () => {
    await asPostgres("pg_ctl", ["-D", join(dir!, "standby"), "-m", "fast", "-w", "stop"]);
    started.splice(started.indexOf(join(dir!, "standby")), 1);
    await writeContent("With the replica down");
    for (const path of ["/on-the-replica", "/feed.xml", "/sitemap.xml", "/tags/lag"]) {
      const read = await page(path);
      expect(read.status, path).toBe(200);
      if (path !== "/sitemap.xml") expect(read.body).toContain(path === "/tags/lag" ? "On the replica" : "With the replica down");
    }
    expect((await api("/analytics")).status).toBe(200);
  });
});
