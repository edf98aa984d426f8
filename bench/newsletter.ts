/**
 * Scenario (n) of `npm run bench` (bench/README.md, "Newsletters"): one post sent to
 * NEWSLETTER_SUBSCRIBERS subscribers through a local SMTP sink, unthrottled, by the app's own job
 * worker. The sink (the `smtp-server` package) accepts every message, reads its bytes and keeps
 * only a count, so it is no slower than a provider's relay and holds no memory.
 */
import type { AddressInfo } from "node:net";
import { insertAccount } from "../scripts/lib/seed-account";
import type pg from "pg";
import { SMTPServer } from "smtp-server";

export const NEWSLETTER_SUBSCRIBERS = 10_000;
const ACCOUNT = "bench_newsletter";

export interface SmtpSink {
  url: string;
  /** Messages accepted so far. */
  accepted(): number;
  stop(): Promise<void>;
}

export async function startSmtpSink(): Promise<SmtpSink> {
  let accepted = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    // As many connections as the app opens (its pool), and a client's messages on each.
    maxClients: 100,
    onData(stream, _session, callback) {
      stream.on("data", () => {});
      stream.on("end", () => {
        accepted++;
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, accepted: () => accepted, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/**
 * The account whose post is sent: made afresh at each run (its subscribers and blogs of an earlier
 * run dropped), with NEWSLETTER_SUBSCRIBERS active subscribers and an unpublished post of some
 * Markdown, a code block and a link. Answers the post's id.
 */
export async function seedNewsletter(db: pg.Client): Promise<string> {
  await insertAccount(db, { id: ACCOUNT, name: "Bench Newsletter", email: "newsletter@bench.example", handle: "bench-newsletter", plan: "enterprise" });
  await db.query(
    `INSERT INTO "subscriber" ("id", "userId", "email", "status", "source", "confirmedAt", "unsubscribeToken")
     SELECT 'bn_' || lpad(g::text, 6, '0'), $1, 'reader' || g || '@sink.example', 'active', 'import', now() - interval '1 hour', md5($1 || g || random()::text)
     FROM generate_series(1, ${NEWSLETTER_SUBSCRIBERS}) AS g`,
    [ACCOUNT],
  );
  const content = Array.from({ length: 12 }, (_, i) => `## Part ${i + 1}\n\nSome words about part ${i + 1}, with [a link](https://example.org/${i}) and *emphasis*.\n\n\`\`\`ts\nconst part = ${i + 1};\n\`\`\``).join("\n\n");
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO "blog" ("id", "userId", "title", "blogSlug", "description", "content", "updatedAt") VALUES ('bn_post', $1, 'A newsletter', 'a-newsletter', 'Sent to ten thousand', $2, now()) RETURNING "id"`,
    [ACCOUNT, content],
  );
  return rows[0]!.id;
}

/** Publishes the post asking for it to be emailed: its trigger starts the newsletter and queues its first batch. */
export async function publishNewsletter(db: pg.Client, blogId: string): Promise<void> {
  await db.query(`UPDATE "blog" SET "isPublic" = true, "emailSubscribers" = true WHERE "id" = $1`, [blogId]);
}

export async function newsletterState(db: pg.Client, blogId: string) {
  const { rows } = await db.query<{ status: string; sent: number; failed: number; startedAt: Date; finishedAt: Date | null }>(
    `SELECT "status", "sent", "failed", "startedAt", "finishedAt" FROM "newsletter" WHERE "blogId" = $1`,
    [blogId],
  );
  return rows[0];
}
