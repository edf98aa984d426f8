// Webhooks end to end (docs/webhooks.md): an endpoint registered through the CLI on a receiver on
// 127.0.0.1 (WEBHOOK_ALLOW_PRIVATE_URLS=1 and WEBHOOK_RETRY_SCHEDULE=1s,2s,4s in `npm test`), the
// server's worker delivering, every signature checked with the standardwebhooks library.
import { randomUUID } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { quickAddJob } from "graphile-worker";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { expectSuccess } from "../api/expect";
import { apiBaseUrl, call, createTestAccount, createTestKey, db, type TestAccount } from "../support/api";
import { runCli } from "../support/cli";
import { signIn, trpc } from "../support/dashboard";
import { tempDirMaker } from "../support/temp-dir";
import { eventually, expectTypes, startReceiver, verifiedEvents, type Receiver } from "./receiver";

vi.setConfig({ testTimeout: 120_000 });
const makeTempDir = tempDirMaker("webhooks-import-");

const BLOG_EVENTS = "blog.created,blog.updated,blog.published,blog.unpublished,blog.deleted";

async function registerThroughCli(account: TestAccount, receiver: Receiver, events = BLOG_EVENTS): Promise<{ id: string; secret: string }> {
  const result = await runCli(["webhook", "create", "--email", account.email, "--url", receiver.url, "--events", events]);
  expect(result.stderr).toBe("");
  const created = JSON.parse(result.stdout) as { id: string; secret: string };
  expect(Object.keys(created).sort()).toEqual(["id", "secret"]);
  expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
  return created;
}

const json = (body: unknown) => ({ body: JSON.stringify(body), headers: { "content-type": "application/json" } });

describe("events for every change to a blog", () => {
  let account: TestAccount;
  let receiver: Receiver;
  let secret: string;

  beforeAll(async () => {
    [account, receiver] = await Promise.all([createTestAccount(), startReceiver()]);
    ({ secret } = await registerThroughCli(account, receiver));
  });
  afterAll(() => receiver?.close());

  it("API: create, update, publish, unpublish, a write that changes nothing, delete", async () => {
    const created = expectSuccess(await call("/blogs", { key: account.key, method: "POST", ...json({ title: "Via API" }) }), 201).blog;
    const renamed = expectSuccess(await call(`/blogs/${created.id}`, { key: account.key, method: "PATCH", ...json({ title: "Renamed" }) })).blog;
    const published = expectSuccess(await call(`/blogs/${created.id}`, { key: account.key, method: "PATCH", ...json({ isPublic: true }) })).blog;
    const unpublished = expectSuccess(await call(`/blogs/${created.id}`, { key: account.key, method: "PATCH", ...json({ isPublic: false }) })).blog;
    expectSuccess(await call(`/blogs/${created.id}`, { key: account.key, method: "PATCH", ...json({ title: "Renamed" }) }));
    expectSuccess(await call(`/blogs/${created.id}`, { key: account.key, method: "DELETE" }));

    await eventually(() => expect(receiver.received).toHaveLength(5));
    const events = verifiedEvents(receiver, secret);
    const byType = Object.fromEntries(events.map((event) => [event.type, event]));
    expectTypes(events, ["blog.created", "blog.updated", "blog.published", "blog.unpublished", "blog.deleted"]);
    expect(byType["blog.created"]!.data).toEqual(created);
    expect(byType["blog.updated"]!.data).toEqual(renamed);
    expect(byType["blog.published"]!.data).toEqual(published);
    expect(byType["blog.unpublished"]!.data).toEqual(unpublished);
    expect(byType["blog.deleted"]!.data).toEqual({ id: created.id });
    expect(new Set(events.map((event) => event.id)).size).toBe(5);
    for (const event of events) expect(event.id).toMatch(/^msg_/);
    for (const { headers } of receiver.received) expect(headers["content-type"]).toBe("application/json");
    // Nothing more arrives (the write that changed nothing has no event).
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(receiver.received).toHaveLength(5);
    receiver.received.length = 0;
  });

  it("dashboard: create, publish with an edit (both events), delete", async () => {
    const cookie = await signIn(account);
    const created = (await trpc(cookie, "blogs.create", { title: "Via dashboard" })).body.result.data.data.blog;
    await trpc(cookie, "blogs.update", { blogId: created.id, title: "Edited", isPublic: true });
    await trpc(cookie, "blogs.delete", { blogId: created.id });

    await eventually(() => expect(receiver.received).toHaveLength(4));
    const events = verifiedEvents(receiver, secret);
    expectTypes(events, ["blog.created", "blog.updated", "blog.published", "blog.deleted"]);
    expect(events.find((event) => event.type === "blog.updated")!.data).toMatchObject({ title: "Edited", isPublic: true });
    receiver.received.length = 0;
  });

  it("CLI import: one blog.created per blog", async () => {
    const file = join(await makeTempDir(), "blogs.json");
    await writeFile(file, JSON.stringify([{ title: "Imported one" }, { title: "Imported two", isPublic: true }]));
    const result = await runCli(["blogs", "import", "--email", account.email, "--file", file]);
    expect(result.stderr).toBe("");

    await eventually(() => expect(receiver.received).toHaveLength(2));
    const events = verifiedEvents(receiver, secret);
    expectTypes(events, ["blog.created", "blog.created"]);
    expect(events.map((event) => event.data.title).sort()).toEqual(["Imported one", "Imported two"]);
    receiver.received.length = 0;
  });

  it("a transaction that writes a blog and rolls back records no event", async () => {
    await expect(
      db().$transaction(async (tx) => {
        await tx.blog.create({ data: { userId: account.id, title: "Rolled back", blogSlug: "rolled-back" } });
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    await db().blog.create({ data: { userId: account.id, title: "Committed", blogSlug: "committed" } });

    await eventually(() => expect(receiver.received).toHaveLength(1));
    expect(verifiedEvents(receiver, secret)[0]!.data.title).toBe("Committed");
    expect(await db().webhookEvent.count({ where: { userId: account.id, data: { path: ["title"], equals: "Rolled back" } } })).toBe(0);
    receiver.received.length = 0;
  });
});

describe("API key events", () => {
  it("api_key.deactivated when a key is deactivated; api_key.expiring once, 7 days before it expires", async () => {
    const [account, receiver] = await Promise.all([createTestAccount(), startReceiver()]);
    try {
      const { secret } = await registerThroughCli(account, receiver, "api_key.deactivated,api_key.expiring");
      const keyId = (await db().apiKey.findFirstOrThrow({ where: { userId: account.id }, select: { id: true } })).id;
      expect((await runCli(["key", "deactivate", "--id", keyId])).stderr).toBe("");
      await createTestKey(account.id, { name: "soon", expiresAt: new Date(Date.now() + 3 * 86_400_000).toISOString() });
      await createTestKey(account.id, { name: "later", expiresAt: new Date(Date.now() + 30 * 86_400_000).toISOString() });
      // The hourly maintenance job, twice, one run after the other: the notice is sent once. The
      // worker is shared with the other test files' deliveries, hence the longer wait.
      await quickAddJob({ connectionString: process.env.DATABASE_URL }, "webhook_maintenance", {});
      await eventually(() => expect(receiver.received).toHaveLength(2), 60_000);
      const second = await quickAddJob({ connectionString: process.env.DATABASE_URL }, "webhook_maintenance", {});
      // Run (a job leaves the table when it has succeeded), and recorded no second notice.
      await eventually(async () => expect(await db().$queryRaw`SELECT id FROM graphile_worker.jobs WHERE id::text = ${second.id}`).toEqual([]), 60_000);
      expect(await db().webhookEvent.count({ where: { userId: account.id, type: "api_key.expiring" } })).toBe(1);
      const events = verifiedEvents(receiver, secret);
      expectTypes(events, ["api_key.deactivated", "api_key.expiring"]);
      expect(events.find((event) => event.type === "api_key.deactivated")!.data).toMatchObject({ id: keyId, deactivatedAt: expect.any(String) });
      expect(events.find((event) => event.type === "api_key.expiring")!.data).toMatchObject({ name: "soon" });
      expect(JSON.stringify(events)).not.toContain("keyHash");
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(receiver.received).toHaveLength(2);
    } finally {
      await receiver.close();
    }
  });
});

describe("the hourly maintenance", () => {
  it("disables an endpoint failing for 5 days, saying why, and drops events and deliveries older than 30 days", async () => {
    const [account, receiver] = await Promise.all([createTestAccount(), startReceiver()]);
    try {
      const failing = await registerThroughCli(account, receiver, "blog.created");
      const healthy = await registerThroughCli(account, receiver, "blog.updated");
      const day = 86_400_000;
      await db().webhookEndpoint.update({ where: { id: failing.id }, data: { failingSince: new Date(Date.now() - 5 * day - 60_000) } });
      await db().webhookEndpoint.update({ where: { id: healthy.id }, data: { failingSince: new Date(Date.now() - 4 * day) } });
      const event = (id: string, ageDays: number) => ({ id, userId: account.id, type: "blog.created", data: {}, createdAt: new Date(Date.now() - ageDays * day), dispatchedAt: new Date() });
      const [oldId, recentId] = [`msg_old${randomUUID().replaceAll("-", "")}`, `msg_new${randomUUID().replaceAll("-", "")}`];
      await db().webhookEvent.createMany({ data: [event(oldId, 31), event(recentId, 29)] });
      await db().webhookDelivery.create({ data: { eventId: oldId, endpointId: healthy.id, status: "succeeded", attempts: 1 } });

      await quickAddJob({ connectionString: process.env.DATABASE_URL }, "webhook_maintenance", {});

      await eventually(async () => expect((await db().webhookEndpoint.findUniqueOrThrow({ where: { id: failing.id } })).enabled).toBe(false));
      expect((await db().webhookEndpoint.findUniqueOrThrow({ where: { id: failing.id } })).disabledReason).toMatch(/^Disabled automatically: every delivery failed since \d{4}-/);
      expect((await db().webhookEndpoint.findUniqueOrThrow({ where: { id: healthy.id } })).enabled).toBe(true);
      await eventually(async () => expect(await db().webhookEvent.findMany({ where: { id: { in: [oldId, recentId] } }, select: { id: true } })).toEqual([{ id: recentId }]));
      expect(await db().webhookDelivery.count({ where: { eventId: oldId } })).toBe(0);
    } finally {
      await receiver.close();
    }
  });
});

describe("the dashboard's Webhooks page", () => {
  it("sends a test event, lists the delivery with its attempt, and resends it with the same webhook-id", async () => {
    const [account, receiver] = await Promise.all([createTestAccount(), startReceiver()]);
    try {
      const cookie = await signIn(account);
      const created = (await trpc(cookie, "webhooks.create", { url: receiver.url, eventTypes: ["blog.deleted"] })).body.result.data;
      expect((await trpc(cookie, "webhooks.sendTest", { id: created.id })).status).toBe(200);
      await eventually(() => expect(receiver.received).toHaveLength(1));
      const [test] = verifiedEvents(receiver, created.secret);
      expect(test).toMatchObject({ type: "webhook.test", data: { endpointId: created.id } });

      let deliveries: any[] = [];
      await eventually(async () => {
        deliveries = (await trpc(cookie, "webhooks.deliveries", { id: created.id })).body.result.data;
        expect(deliveries).toMatchObject([{ status: "succeeded", attemptCount: 1, nextAttemptAt: null, event: { id: test!.id, type: "webhook.test" } }]);
      });
      expect(deliveries[0].attempts).toEqual([
        { attempt: 1, startedAt: expect.any(String), durationMs: expect.any(Number), responseStatus: 200, responseBody: "thanks", error: null },
      ]);

      expect((await trpc(cookie, "webhooks.resend", { deliveryId: deliveries[0].id })).status).toBe(200);
      await eventually(() => expect(receiver.received).toHaveLength(2));
      expect(verifiedEvents(receiver, created.secret).map((event) => event.id)).toEqual([test!.id, test!.id]);

      const rolled = (await trpc(cookie, "webhooks.rollSecret", { id: created.id })).body.result.data;
      expect(rolled.secret).not.toBe(created.secret);
      await trpc(cookie, "webhooks.sendTest", { id: created.id });
      await eventually(() => expect(receiver.received).toHaveLength(3));
      receiver.received.splice(0, 2);
      expect(verifiedEvents(receiver, rolled.secret)).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });
});

describe("retries", () => {
  it("a receiver that answers 500 three times gets the event on the fourth attempt, 1 s, 2 s and 4 s apart", async () => {
    const [account, receiver] = await Promise.all([createTestAccount(), startReceiver([500, 500, 500])]);
    try {
      const { id, secret } = await registerThroughCli(account, receiver, "blog.created");
      expectSuccess(await call("/blogs", { key: account.key, method: "POST", ...json({ title: "Retried" }) }), 201);

      await eventually(() => expect(receiver.received).toHaveLength(4), 30_000);
      const events = verifiedEvents(receiver, secret);
      expect(new Set(events.map((event) => event.id)).size).toBe(1);
      const gaps = receiver.received.slice(1).map((request, i) => request.at - receiver.received[i]!.at);
      [1_000, 2_000, 4_000].forEach((scheduled, i) => {
        expect(gaps[i]).toBeGreaterThanOrEqual(scheduled - 50);
        expect(gaps[i]).toBeLessThan(scheduled + 1_500);
      });

      await eventually(async () => {
        const [delivery] = await db().webhookDelivery.findMany({ where: { endpointId: id }, include: { attemptLog: { orderBy: { attempt: "asc" } } } });
        expect(delivery).toMatchObject({ status: "succeeded", attempts: 4, nextAttemptAt: null });
        expect(delivery!.attemptLog.map((attempt) => [attempt.attempt, attempt.responseStatus, attempt.responseBody])).toEqual([
          [1, 500, "not now"],
          [2, 500, "not now"],
          [3, 500, "not now"],
          [4, 200, "thanks"],
        ]);
      });
    } finally {
      await receiver.close();
    }
  });
});

describe("concurrency", () => {
  it("sends one endpoint's deliveries concurrently, at most WEBHOOK_ENDPOINT_CONCURRENCY (4) at a time", async () => {
    const [account, receiver] = await Promise.all([createTestAccount(), startReceiver([], 700)]);
    try {
      await registerThroughCli(account, receiver, "blog.created");
      await db().blog.createMany({ data: Array.from({ length: 16 }, (_, i) => ({ userId: account.id, title: `Burst ${i}`, blogSlug: `burst-${i}` })) });
      await eventually(() => expect(receiver.received).toHaveLength(16), 30_000);
      expect(receiver.maxInFlight).toBeGreaterThan(1);
      expect(receiver.maxInFlight).toBeLessThanOrEqual(4);
    } finally {
      await receiver.close();
    }
  });
});

describe("the Vercel Cron route", () => {
  const cron = (authorization?: string) =>
    fetch(new URL("/api/cron/jobs", apiBaseUrl()), { headers: authorization ? { authorization } : {} });

  it("refuses a call without CRON_SECRET in the error envelope, and runs the due jobs with it", async () => {
    for (const answer of [await cron(), await cron("Bearer wrong-secret-of-some-length")]) {
      expect(answer.status).toBe(401);
      expect(await answer.json()).toMatchObject({ success: false, error: { code: "INVALID_API_KEY" } });
    }
    const answer = await cron(`Bearer ${process.env.CRON_SECRET}`);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ success: true });
  });
});

describe("endpoint URLs", () => {
  it("refuses a URL resolving to 127.0.0.1 unless WEBHOOK_ALLOW_PRIVATE_URLS=1", async () => {
    const account = await createTestAccount();
    const refused = await runCli(["webhook", "create", "--email", account.email, "--url", "http://localhost:8080/hook", "--events", "blog.created"], {
      WEBHOOK_ALLOW_PRIVATE_URLS: "0",
    });
    expect(refused.code).toBe(1);
    // The refusal names no address: it would turn endpoint creation into a lookup of internal names.
    expect(refused.stderr).toContain("url's host must resolve to public internet addresses only");
    expect(refused.stderr).not.toMatch(/127\.0\.0\.1|::1/);
    const direct = await runCli(["webhook", "create", "--email", account.email, "--url", "http://127.0.0.1:8080/hook", "--events", "blog.created"], {
      WEBHOOK_ALLOW_PRIVATE_URLS: "0",
    });
    expect(direct.stderr).toContain("url's host must resolve to public internet addresses only");
    // However the address is written, and whether or not the name resolves: the same words.
    for (const url of ["https://[::127.0.0.1]/", "https://[::ffff:0:7f00:1]/", "https://[64:ff9b:1::a00:1]/", "https://2130706433/", "https://0x7f.1/"]) {
      const answer = await runCli(["webhook", "create", "--email", account.email, "--url", url, "--events", "blog.created"], { WEBHOOK_ALLOW_PRIVATE_URLS: "0" });
      expect(answer.stderr, url).toBe("webhook create: url's host must resolve to public internet addresses only\n");
    }
    expect(await db().webhookEndpoint.count({ where: { userId: account.id } })).toBe(0);
  });

  it("lists, disables and deletes endpoints through the CLI", async () => {
    const [account, receiver] = await Promise.all([createTestAccount(), startReceiver()]);
    try {
      const { id } = await registerThroughCli(account, receiver, "blog.created");
      const listed = JSON.parse((await runCli(["webhook", "list", "--email", account.email])).stdout) as Record<string, unknown>[];
      expect(listed).toEqual([expect.objectContaining({ id, url: receiver.url, eventTypes: ["blog.created"], enabled: true })]);
      expect(listed[0]).not.toHaveProperty("secret");

      expect(JSON.parse((await runCli(["webhook", "disable", "--id", id])).stdout)).toMatchObject({ id, enabled: false, disabledReason: "Disabled by its owner" });
      expectSuccess(await call("/blogs", { key: account.key, method: "POST", ...json({ title: "Unheard" }) }), 201);
      expect(JSON.parse((await runCli(["webhook", "delete", "--id", id])).stdout)).toEqual({ id, status: "deleted" });
      expect(receiver.received).toHaveLength(0);
      expect((await runCli(["webhook", "delete", "--id", id])).stderr).toContain(`no webhook endpoint with id ${id}`);
    } finally {
      await receiver.close();
    }
  });
});
