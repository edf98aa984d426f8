// Scheduled publishing (docs/api.md, publishing) against the built production server, on a
// database of its own: a blog scheduled over the API becomes public within the window with exactly
// one blog.published, with two instances running, and after a stop across the moment; cancelling
// and rescheduling leave one publication; racing reschedules leave one job.
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createScratchDatabase } from "../../scripts/lib/scratch-database";
import { startProductionServer, type RunningServer } from "../../scripts/lib/next-server";
import { serverLogFile } from "../support/server-logs";
import { PrismaClient } from "~/generated/prisma/client";
import { createAccount } from "~/server/accounts/create-account";
import { applyMigrations } from "~/server/db/migrate";
import { createApiKey } from "~/server/keys/create-api-key";
import { createWebhookEndpoint } from "~/server/webhooks/endpoints";
import { PERMISSIONS } from "~/shared/permissions";
import { eventually, startReceiver, verifiedEvents, type Receiver } from "./receiver";

vi.setConfig({ testTimeout: 150_000 });

let databaseUrl: string;
let dropDatabase: () => Promise<void>;
let db: PrismaClient;
let sql: pg.Pool;
let receiver: Receiver;
let secret: string;
let key: string;
let accountId: string;
let accountHandle: string;
const servers: RunningServer[] = [];

const start = async () => {
  const server = await startProductionServer({ ...process.env, DATABASE_URL: databaseUrl, WEBHOOK_WORKER: "1" }, { logFile: serverLogFile() });
  servers.push(server);
  return server;
};
const stopAll = async () => {
  await Promise.all(servers.splice(0).map((server) => server.stop()));
};

async function api(server: RunningServer, method: string, path: string, body?: unknown) {
  const response = await fetch(`${server.baseUrl}/api/v1${path}`, {
    method,
    headers: { "x-api-key": key, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, json: await response.json() };
}

const inSeconds = (seconds: number) => new Date(Date.now() + seconds * 1000).toISOString();
const isPublic = async (id: string) => (await sql.query<{ isPublic: boolean }>(`SELECT "isPublic" FROM "blog" WHERE "id" = $1`, [id])).rows[0]!.isPublic;
const jobsOf = async (id: string) =>
  (await sql.query<{ run_at: Date }>(`SELECT "run_at" FROM graphile_worker.jobs WHERE "key" = $1`, [`blog_publish:${id}`])).rows;
/** Jobs and named queues still locked: none once every server has stopped (src/server/jobs/worker.ts, releaseLeftLocks). */
const lockedRows = async () =>
  (
    await sql.query<{ locked: number }>(
      `SELECT (SELECT count(*) FROM graphile_worker._private_jobs WHERE locked_at IS NOT NULL)
            + (SELECT count(*) FROM graphile_worker._private_job_queues WHERE locked_at IS NOT NULL) AS "locked"`,
    )
  ).rows[0]!.locked;
/** The verified events about one blog, by type. */
const eventsOf = (id: string, type: string) => verifiedEvents(receiver, secret).filter((event) => event.type === type && event.data.id === id);

async function createDraft(server: RunningServer, title: string): Promise<string> {
  const created = await api(server, "POST", "/blogs", { title });
  expect(created.status).toBe(201);
  return created.json.data.blog.id;
}

beforeAll(async () => {
  ({ url: databaseUrl, drop: dropDatabase } = await createScratchDatabase(process.env.DATABASE_URL, "blogmgr_scheduled"));
  await applyMigrations(databaseUrl);
  db = new PrismaClient({ adapter: new PrismaPg({ connectionString: databaseUrl }) });
  sql = new pg.Pool({ connectionString: databaseUrl, max: 4 });
  receiver = await startReceiver();
  const account = await createAccount(db, { email: "scheduled@example.test", password: "password-123" });
  accountId = account.id;
  accountHandle = account.handle;
  key = (await createApiKey(db, { accountId, name: "scheduler", permissions: [...PERMISSIONS] })).key;
  ({ secret } = await createWebhookEndpoint(db, {
    accountId,
    url: receiver.url,
    eventTypes: ["blog.scheduled", "blog.published", "blog.updated"],
  }));
}, 120_000);

afterAll(async () => {
  await stopAll();
  await receiver?.close();
  await sql?.end();
  await db?.$disconnect();
  await dropDatabase?.();
});

describe("a scheduled blog", () => {
  it("becomes public within the window with exactly one blog.published while two instances run", async () => {
    const [first, second] = [await start(), await start()];
    const id = await createDraft(first, "Two instances");
    const publishAt = inSeconds(5);
    const scheduled = await api(second, "PATCH", `/blogs/${id}`, { publishAt });
    expect(scheduled.status).toBe(200);
    expect(scheduled.json.data.blog).toMatchObject({ status: "scheduled", publishAt, isPublic: false });
    expect(await jobsOf(id)).toHaveLength(1);

    await eventually(async () => expect(await isPublic(id)).toBe(true), 60_000);
    const published = (await api(first, "GET", `/blogs/${id}`)).json.data.blog;
    expect(published).toMatchObject({ status: "published", publishAt: null, isPublic: true });
    expect(Date.parse(published.publishedAt)).toBeGreaterThanOrEqual(Date.parse(publishAt));
    await eventually(() => expect(eventsOf(id, "blog.published")).toHaveLength(1));
    // Time for a second publication, were there one.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(eventsOf(id, "blog.published")).toHaveLength(1);
    expect(eventsOf(id, "blog.scheduled")).toHaveLength(1);
    expect(eventsOf(id, "blog.updated")).toHaveLength(0);
    expect(await jobsOf(id)).toHaveLength(0);
    await stopAll();
  });

  it("shows on the public pages of both instances once the job publishes it, cached pages forgotten", async () => {
    const [first, second] = [await start(), await start()];
    const already = await api(first, "POST", "/blogs", { title: "Public already", isPublic: true });
    expect(already.status).toBe(201);
    const index = (server: RunningServer) => fetch(`${server.baseUrl}/${accountHandle}`).then(async (response) => ({ cache: response.headers.get("x-cache"), html: await response.text() }));
    // Both instances keep the index (the listener proves itself within seconds of the start).
    for (const server of [first, second]) await expect.poll(async () => (await index(server)).cache, { timeout: 20_000, interval: 200 }).toBe("HIT");
    const id = await createDraft(first, "Published by the job");
    expect((await api(first, "PATCH", `/blogs/${id}`, { publishAt: inSeconds(3) })).status).toBe(200);
    await eventually(async () => expect(await isPublic(id)).toBe(true), 60_000);
    // The instance that ran the job forgets the account's pages right after the publication
    // commits; the other one hears PostgreSQL's notice within milliseconds.
    for (const server of [first, second]) await expect.poll(async () => (await index(server)).html, { timeout: 2_000, interval: 20 }).toContain("Published by the job");
    await stopAll();
  });

  it("is published once, at start, when the server was stopped across its moment", async () => {
    const server = await start();
    const id = await createDraft(server, "Stopped across the moment");
    expect((await api(server, "PATCH", `/blogs/${id}`, { publishAt: inSeconds(3) })).status).toBe(200);
    // Stopped while the blog.scheduled delivery is taken: nothing stays locked for the next start.
    await stopAll();
    expect(Number(await lockedRows())).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    expect(await isPublic(id)).toBe(false);

    await start();
    await eventually(async () => expect(await isPublic(id)).toBe(true), 60_000);
    await eventually(() => expect(eventsOf(id, "blog.published")).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(eventsOf(id, "blog.published")).toHaveLength(1);
    await stopAll();
  });

  it("cancelled, stays a draft; rescheduled, is published once", async () => {
    const server = await start();
    const id = await createDraft(server, "Cancelled then rescheduled");
    expect((await api(server, "PATCH", `/blogs/${id}`, { publishAt: inSeconds(3) })).status).toBe(200);
    const cancelled = await api(server, "PATCH", `/blogs/${id}`, { publishAt: null });
    expect(cancelled.json.data.blog).toMatchObject({ status: "draft", publishAt: null });
    expect(await jobsOf(id)).toHaveLength(0);
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    expect(await isPublic(id)).toBe(false);
    expect(eventsOf(id, "blog.published")).toHaveLength(0);

    expect((await api(server, "PATCH", `/blogs/${id}`, { publishAt: inSeconds(60) })).status).toBe(200);
    expect((await api(server, "PATCH", `/blogs/${id}`, { publishAt: inSeconds(3) })).status).toBe(200);
    await eventually(async () => expect(await isPublic(id)).toBe(true), 60_000);
    // Deliveries run in their own jobs, so the last blog.scheduled may arrive after the publication.
    await eventually(() => {
      expect(eventsOf(id, "blog.published")).toHaveLength(1);
      expect(eventsOf(id, "blog.scheduled")).toHaveLength(3);
    });
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(eventsOf(id, "blog.published")).toHaveLength(1);
    await stopAll();
  });

  it("rescheduled three times at once, has one job, at the time its blog says", async () => {
    const server = await start();
    const id = await createDraft(server, "Racing reschedules");
    const answers = await Promise.all([600, 1200, 1800].map((seconds) => api(server, "PATCH", `/blogs/${id}`, { publishAt: inSeconds(seconds) })));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    const jobs = await jobsOf(id);
    expect(jobs).toHaveLength(1);
    const { rows } = await sql.query<{ publishAt: Date }>(`SELECT "publishAt" FROM "blog" WHERE "id" = $1`, [id]);
    expect(jobs[0]!.run_at.getTime()).toBe(rows[0]!.publishAt.getTime());
    // Deleting the blog removes its job.
    expect((await api(server, "DELETE", `/blogs/${id}`)).status).toBe(200);
    expect(await jobsOf(id)).toHaveLength(0);
    await stopAll();
  });
});
