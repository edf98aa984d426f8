import { PrismaPg } from "@prisma/adapter-pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startMailbox, type CapturedEmail, type RunningMailbox } from "../../scripts/lib/mailbox";
import { startProductionServer, type RunningServer } from "../../scripts/lib/next-server";
import { createScratchDatabase } from "../../scripts/lib/scratch-database";
import { serverLogFile } from "../support/server-logs";
import { PrismaClient } from "~/generated/prisma/client";
import { createAccount } from "~/server/accounts/create-account";
import { applyMigrations } from "~/server/db/migrate";
import { LEASE_SECONDS } from "~/server/newsletters/send";
import { publishWithNewsletter, seedSubscribers, until } from "./support";

/**
 * A server killed (SIGKILL) in the middle of sending a newsletter, then started again
 * (docs/newsletters.md, Sending): every subscriber still gets the post, and the only ones who get
 * it twice are among the messages in flight at the kill. On a database and a mailbox of its own,
 * so that no other server's worker sends the batches; the mailbox accepts a message every 100 ms
 * per connection, slow enough to kill the server mid-send.
 */
vi.setConfig({ testTimeout: LEASE_SECONDS * 1000 + 120_000, hookTimeout: 120_000 });

const SUBSCRIBERS = 300;

let databaseUrl: string;
let dropDatabase: () => Promise<void>;
let db: PrismaClient;
let mailbox: RunningMailbox;
const servers: RunningServer[] = [];

beforeAll(async () => {
  ({ url: databaseUrl, drop: dropDatabase } = await createScratchDatabase(process.env.DATABASE_URL, "blogmgr_newsletter_crash"));
  await applyMigrations(databaseUrl);
  db = new PrismaClient({ adapter: new PrismaPg({ connectionString: databaseUrl }) });
  mailbox = await startMailbox({ acceptDelayMs: 100 });
});

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  await mailbox?.stop();
  await db?.$disconnect();
  await dropDatabase?.();
});

const start = async () => {
  const env = { ...process.env, DATABASE_URL: databaseUrl, SMTP_URL: mailbox.smtpUrl, WEBHOOK_WORKER: "1", NEWSLETTER_RATE_PER_MINUTE: "0" };
  const server = await startProductionServer(env, { logFile: serverLogFile() });
  servers.push(server);
  return server;
};

const messagesTo = async (to: string) =>
  ((await (await fetch(`${mailbox.apiUrl}/messages?to=${encodeURIComponent(to)}`)).json()) as { messages: CapturedEmail[] }).messages;
const deliveries = (blogId: string, status: "claimed" | "sent") => db.newsletterDelivery.count({ where: { blogId, status } });

describe("a server killed mid-send", () => {
  it("leaves nobody out once restarted, and resends at most the messages in flight", async () => {
    const first = await start();
    const account = await createAccount(db, { email: "crash@example.test", password: "password-123" });
    const { id: blogId } = await db.blog.create({ data: { userId: account.id, title: "Sent through a crash", blogSlug: "crash", content: "Hello." } });
    const addresses = await seedSubscribers(db, account.id, Array.from({ length: SUBSCRIBERS }, () => "active" as const));
    await publishWithNewsletter(db, blogId);

    await until(async () => (await deliveries(blogId, "sent")) >= 50, 60_000, "50 messages are sent");
    process.kill(first.pid, "SIGKILL");
    await first.stop();
    // What was claimed and not yet marked sent: in flight (handed to SMTP) or waiting in its batch.
    const open = await deliveries(blogId, "claimed");
    const sentBeforeRestart = await deliveries(blogId, "sent");
    expect(sentBeforeRestart).toBeLessThan(SUBSCRIBERS);

    await start();
    await until(async () => (await db.newsletter.findUniqueOrThrow({ where: { blogId } })).status === "sent", LEASE_SECONDS * 1000 + 90_000, "the newsletter is sent");

    const received = await Promise.all(addresses.map(async (address) => (await messagesTo(address)).length));
    expect(received.filter((count) => count === 0)).toHaveLength(0);
    const duplicates = received.reduce((sum, count) => sum + count - 1, 0);
    expect(duplicates).toBeLessThanOrEqual(open);
    expect(await db.newsletter.findUniqueOrThrow({ where: { blogId } })).toMatchObject({ total: SUBSCRIBERS, sent: SUBSCRIBERS, failed: 0 });
  });
});
