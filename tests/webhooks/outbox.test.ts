// Events outlive a stopped worker (docs/webhooks.md): on a database of its own, blogs are written
// with plain SQL while no worker runs (first before the job engine's schema exists, then after
// it) and the events are delivered once a worker starts.
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { createScratchDatabase } from "../../scripts/lib/scratch-database";
import { PrismaClient } from "~/generated/prisma/client";
import { createAccount } from "~/server/accounts/create-account";
import { applyMigrations } from "~/server/db/migrate";
import { createWebhookEndpoint } from "~/server/webhooks/endpoints";
import { startJobWorker } from "~/server/jobs/worker";
import { eventually, expectTypes, startReceiver, verifiedEvents, type Receiver } from "./receiver";

vi.setConfig({ testTimeout: 120_000 });

let databaseUrl: string;
let dropDatabase: () => Promise<void>;
let db: PrismaClient;
let sql: pg.Pool;
let receiver: Receiver;

beforeAll(async () => {
  ({ url: databaseUrl, drop: dropDatabase } = await createScratchDatabase(process.env.DATABASE_URL, "blogmgr_webhooks"));
  await applyMigrations(databaseUrl);
  db = new PrismaClient({ adapter: new PrismaPg({ connectionString: databaseUrl }) });
  sql = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  receiver = await startReceiver();
}, 60_000);

afterAll(async () => {
  await receiver?.close();
  await sql?.end();
  await db?.$disconnect();
  await dropDatabase?.();
});

it("delivers events recorded while no worker ran, before and after the job engine was installed", async () => {
  const account = await createAccount(db, { email: "outbox@example.test", password: "password-123" });
  const { secret } = await createWebhookEndpoint(db, { accountId: account.id, url: receiver.url, eventTypes: ["blog.created", "blog.updated"] });
  const insert = `INSERT INTO "blog" ("id", "userId", "title", "blogSlug", "updatedAt") VALUES ($1, $2, $3, $1, now())`;

  await sql.query(insert, ["written-before-any-worker", account.id, "Before"]);
  let worker = await startJobWorker(databaseUrl);
  await eventually(() => expect(receiver.received).toHaveLength(1));
  await worker.stop();

  await sql.query(insert, ["written-while-stopped", account.id, "While stopped"]);
  await sql.query(`UPDATE "blog" SET "title" = 'While stopped, edited' WHERE "id" = 'written-while-stopped'`);
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  expect(receiver.received).toHaveLength(1);

  worker = await startJobWorker(databaseUrl);
  try {
    await eventually(() => expect(receiver.received).toHaveLength(3));
  } finally {
    await worker.stop();
  }
  const events = verifiedEvents(receiver, secret);
  expectTypes(events, ["blog.created", "blog.created", "blog.updated"]);
  expect(events.map((event) => event.data.title).sort()).toEqual(["Before", "While stopped", "While stopped, edited"]);
});
