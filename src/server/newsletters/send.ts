import "server-only";
import type { JobHelpers } from "graphile-worker";
import type { PoolClient } from "pg";
import { z } from "zod";
import { env } from "~/env";
import { getSqlPool } from "~/server/db";
import { SMTP_SOCKET_TIMEOUT_MS } from "~/server/email/send-email";
import { defineJob, JOB_NAMES } from "~/server/jobs/definition";
import { jobsDeadline } from "~/server/jobs/run-deadline";
import { configuredRateLimiter } from "~/server/ratelimit/configured";
import { log } from "~/server/runtime/log";
import { personalize, renderNewsletter } from "./email";
import { readNewsletterSource } from "./post";
import { sendNewsletterMessage, SMTP_CONNECTIONS } from "./transport";

/**
 * The newsletter_send job (docs/newsletters.md, Sending): one batch of a post's email. Each run
 * claims up to BATCH_SIZE subscribers (active and confirmed by the newsletter's start) by inserting
 * their newsletter_delivery rows, whose primary key no two runs can both insert: that claim is what
 * sends each subscriber the post at most once, however many instances run batches at the same
 * time. It queues its successor before sending, so another worker takes the next batch meanwhile,
 * renders the email once, and marks each delivery as SMTP answers it. A claim whose process died
 * is taken again after LEASE_SECONDS: a crash resends at most the messages that were in flight.
 */

const BATCH_SIZE = 100;
/** A claim not marked within this long is its process's that died, and is taken again. */
export const LEASE_SECONDS = 120;
/** A batch hands no message to SMTP after this long (a slow SMTP server): with SMTP's 30 s timeout after it, still well within the lease. */
const BATCH_DEADLINE_MS = 20_000;
/** A process queues the next batch at once only while it runs fewer batches than this: the rest of its workers stay free for other jobs. */
const PARALLEL_BATCHES = 2;
/** A message SMTP refused for a while (4xx, no connection) is tried again after 5 s, 15 s, 45 s, … at most an hour, up to this many times. */
const MAX_ATTEMPTS = 8;
const retryDelaySeconds = (attempts: number) => Math.min(5 * 3 ** (attempts - 1), 3_600);

/** One lock per newsletter: batches claim under its shared mode, the end is recorded under its exclusive one. */
const LOCK_SQL = (mode: "shared" | "exclusive") => `SELECT ${mode === "shared" ? "pg_advisory_xact_lock_shared" : "pg_advisory_xact_lock"}(hashtext('${JOB_NAMES.sendNewsletter}:' || $1::text))`;

interface Claimed {
  subscriberId: string;
  email: string;
  unsubscribeToken: string;
  attempts: number;
}

/**
 * Claims a batch: first claims whose lease ran out (a dead process's, or released to be retried)
 * of subscribers still active (the others' are dropped: they are no longer on the list), then new
 * subscribers after the highest already claimed (the list walked by id), or, with `sweep`, any
 * not yet claimed (one a concurrent write had locked and the walk skipped). SKIP LOCKED lets
 * batches claiming at the same moment take different subscribers.
 */
const CLAIM_SQL = (sweep: boolean) => `
WITH "running" AS (
  SELECT "userId", "startedAt" FROM "newsletter" WHERE "blogId" = $1 AND "status" = 'sending'
), "dropped" AS (
  DELETE FROM "newsletter_delivery" AS d USING "subscriber" AS s
  WHERE d."blogId" = $1 AND d."status" = 'claimed' AND d."claimedAt" < now() - make_interval(secs => $3)
    AND s."id" = d."subscriberId" AND s."status" <> 'active'
), "retaken" AS (
  UPDATE "newsletter_delivery" AS d SET "claimedAt" = now()
  FROM (
    SELECT d2."subscriberId" FROM "newsletter_delivery" AS d2 JOIN "subscriber" AS s ON s."id" = d2."subscriberId" AND s."status" = 'active'
    WHERE d2."blogId" = $1 AND d2."status" = 'claimed' AND d2."claimedAt" < now() - make_interval(secs => $3)
    ORDER BY d2."claimedAt" LIMIT $2 FOR UPDATE OF d2 SKIP LOCKED
  ) AS due
  WHERE d."blogId" = $1 AND d."subscriberId" = due."subscriberId"
  RETURNING d."subscriberId", d."attempts"
), "fresh" AS (
  INSERT INTO "newsletter_delivery" ("blogId", "subscriberId")
  SELECT $1, c."id" FROM (
    SELECT s."id" FROM "subscriber" AS s, "running" AS n
    WHERE s."userId" = n."userId" AND s."status" = 'active' AND s."confirmedAt" <= n."startedAt"
      ${sweep ? "" : `AND s."id" > COALESCE((SELECT max("subscriberId") FROM "newsletter_delivery" WHERE "blogId" = $1), '')`}
      AND NOT EXISTS (SELECT 1 FROM "newsletter_delivery" AS d WHERE d."blogId" = $1 AND d."subscriberId" = s."id")
    ORDER BY s."id" LIMIT GREATEST($2 - (SELECT count(*) FROM "retaken"), 0)
    FOR NO KEY UPDATE OF s SKIP LOCKED
  ) AS c
  ON CONFLICT DO NOTHING
  RETURNING "subscriberId", "attempts"
), "claimed" AS (SELECT * FROM "retaken" UNION ALL SELECT * FROM "fresh")
SELECT c."subscriberId", s."email", s."unsubscribeToken", c."attempts" FROM "claimed" AS c JOIN "subscriber" AS s ON s."id" = c."subscriberId"`;

async function inTransaction<T>(client: PoolClient, work: () => Promise<T>): Promise<T> {
  await client.query("BEGIN");
  try {
    const result = await work();
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK");
    throw error;
  }
}

async function claimBatch(helpers: JobHelpers, blogId: string, sweep: boolean): Promise<Claimed[]> {
  return helpers.withPgClient((client) =>
    inTransaction(client, async () => {
      await client.query(LOCK_SQL("shared"), [blogId]);
      return (await client.query<Claimed>(CLAIM_SQL(sweep), [blogId, BATCH_SIZE, LEASE_SECONDS])).rows;
    }),
  );
}

/**
 * The end, once no subscriber is left to claim and no claim is open: the newsletter is sent, and
 * newsletter.sent is recorded with its figures, once (the status changes once). Answers whether
 * it ended now.
 */
async function finish(helpers: JobHelpers, blogId: string): Promise<boolean> {
  return helpers.withPgClient((client) =>
    inTransaction(client, async () => {
      await client.query(LOCK_SQL("exclusive"), [blogId]);
      const { rowCount } = await client.query(
        `WITH "done" AS (
           UPDATE "newsletter" SET "status" = 'sent', "finishedAt" = now()
           WHERE "blogId" = $1 AND "status" = 'sending'
             AND NOT EXISTS (SELECT 1 FROM "newsletter_delivery" WHERE "blogId" = $1 AND "status" = 'claimed')
           RETURNING *
         )
         SELECT "webhook_record_event"("userId", 'newsletter.sent', jsonb_build_object(
           'blogId', "blogId", 'total', "total", 'sent', "sent", 'failed', "failed",
           'startedAt', "webhook_iso_time"("startedAt"), 'finishedAt', "webhook_iso_time"("finishedAt")))
         FROM "done"`,
        [blogId],
      );
      return (rowCount ?? 0) > 0;
    }),
  );
}

/**
 * Queues the next batch (at `runAt`, else now), replacing one already waiting: one at most waits.
 * `unlessSooner`: a batch already waiting keeps its time (the look at open claims' lease end must
 * not put off the batch their own sender queued for now, which ends the newsletter).
 */
async function queueNextBatch(helpers: JobHelpers, blogId: string, runAt?: Date, { unlessSooner = false } = {}): Promise<void> {
  await helpers.addJob(
    JOB_NAMES.sendNewsletter,
    { blogId },
    { jobKey: `${JOB_NAMES.sendNewsletter}:${blogId}`, jobKeyMode: unlessSooner ? "preserve_run_at" : "replace", runAt, maxAttempts: 25 },
  );
}

/** Marks a delivery sent (SMTP accepted it) and counts it, unless another batch marked it first. */
const MARK_SENT_SQL = `
WITH "marked" AS (
  UPDATE "newsletter_delivery" SET "status" = 'sent', "finishedAt" = now(), "error" = NULL
  WHERE "blogId" = $1 AND "subscriberId" = $2 AND "status" = 'claimed' RETURNING 1
)
UPDATE "newsletter" SET "sent" = "sent" + 1 WHERE "blogId" = $1 AND EXISTS (SELECT 1 FROM "marked")`;

/** Marks a delivery failed and counts it; with `bounce`, a permanent refusal, the subscriber is bounced too. */
const MARK_FAILED_SQL = `
WITH "marked" AS (
  UPDATE "newsletter_delivery" SET "status" = 'failed', "finishedAt" = now(), "error" = $3, "attempts" = "attempts" + 1
  WHERE "blogId" = $1 AND "subscriberId" = $2 AND "status" = 'claimed' RETURNING 1
), "bounced" AS (
  UPDATE "subscriber" SET "status" = 'bounced', "bounceReason" = $3
  WHERE $4 AND "id" = $2 AND "status" = 'active' AND EXISTS (SELECT 1 FROM "marked")
)
UPDATE "newsletter" SET "failed" = "failed" + 1 WHERE "blogId" = $1 AND EXISTS (SELECT 1 FROM "marked")`;

/**
 * Releases claims to be taken again once `retryInSeconds` have passed (0: by the next batch): their
 * lease is made to run out then. `failedAttempt`: the message was tried and SMTP refused it for now.
 */
const RELEASE_SQL = `
UPDATE "newsletter_delivery" SET "claimedAt" = now() - make_interval(secs => $3) + make_interval(secs => $4),
  "attempts" = "attempts" + $5, "error" = COALESCE($6, "error")
WHERE "blogId" = $1 AND "subscriberId" = ANY ($2::text[]) AND "status" = 'claimed'`;

/**
 * A statement on the job worker's own connections: a newsletter's marks never wait behind the
 * API's queries on the app's pool, nor make them wait (bench/README.md, Newsletters).
 */
type Sql = (text: string, values: unknown[]) => Promise<unknown>;
const workerSql =
  (helpers: JobHelpers): Sql =>
  (text, values) =>
    helpers.withPgClient((client) => client.query(text, values));

const release = async (sql: Sql, blogId: string, ids: string[], retryInSeconds: number, failed?: { error: string }) => {
  if (ids.length > 0) await sql(RELEASE_SQL, [blogId, ids, LEASE_SECONDS, retryInSeconds, failed ? 1 : 0, failed?.error ?? null]);
};

/**
 * SMTP's answer as kept for the owner: its reply (no secret: SMTP_URL's credentials are never in
 * it), shortened; and whether it refused the recipient (RCPT TO), rather than the sender, the
 * message, the login or the connection, which would be the same for every subscriber.
 */
function smtpAnswer(error: unknown): { code: number | undefined; text: string; aboutRecipient: boolean } {
  const { responseCode, response, message, command } = (error ?? {}) as { responseCode?: unknown; response?: unknown; message?: unknown; command?: unknown };
  const code = typeof responseCode === "number" ? responseCode : undefined;
  const text = typeof response === "string" ? response : typeof message === "string" ? message : String(error);
  return { code, text: text.slice(0, 500), aboutRecipient: command === "RCPT TO" };
}

/** Batches this process runs now. */
let runningBatches = 0;

const throttle = () => configuredRateLimiter("newsletter-rate");

export async function sendNewsletterBatch({ blogId }: { blogId: string }, helpers: JobHelpers): Promise<void> {
  const sendUntil = Math.min(Date.now() + BATCH_DEADLINE_MS, jobsDeadline() - SMTP_SOCKET_TIMEOUT_MS);
  if (sendUntil < Date.now() + 1_000) {
    // Left for the next run of due jobs (on Vercel, the next minute's cron call).
    await queueNextBatch(helpers, blogId, new Date(Date.now() + 30_000));
    return;
  }
  let claimed = await claimBatch(helpers, blogId, false);
  if (claimed.length === 0) claimed = await claimBatch(helpers, blogId, true);
  if (claimed.length === 0) {
    if (await finish(helpers, blogId)) {
      log.info({ newsletter: { blogId } }, "newsletter sent");
      return;
    }
    // Claims still open (in flight elsewhere, or waiting to be retried): looked at again when the first lease runs out.
    const { rows } = await getSqlPool().query<{ next: Date | null }>(
      `SELECT min("claimedAt") + make_interval(secs => $2) AS "next" FROM "newsletter_delivery" WHERE "blogId" = $1 AND "status" = 'claimed'`,
      [blogId, LEASE_SECONDS],
    );
    if (rows[0]?.next) await queueNextBatch(helpers, blogId, new Date(Math.max(rows[0].next.getTime(), Date.now()) + 1_000), { unlessSooner: true });
    return;
  }
  runningBatches++;
  try {
    if (runningBatches <= PARALLEL_BATCHES) await queueNextBatch(helpers, blogId);
    const resumeAt = await sendClaimed(workerSql(helpers), blogId, claimed, sendUntil);
    await queueNextBatch(helpers, blogId, resumeAt);
  } finally {
    runningBatches--;
  }
}

/** Sends the claimed messages, SMTP_CONNECTIONS at a time; answers when the next batch may start (the throttle's next window, or after a refusal of every message), else undefined. */
async function sendClaimed(sql: Sql, blogId: string, claimed: Claimed[], deadline: number): Promise<Date | undefined> {
  const source = await readNewsletterSource(getSqlPool(), blogId);
  if (!source) return undefined;
  const rendered = await renderNewsletter(source.post, source.site);
  const rate = env.NEWSLETTER_RATE_PER_MINUTE;
  let next = 0;
  let stop: { retryInSeconds: number; resumeAt?: Date } | undefined;
  const untried: string[] = [];

  const sendOne = async (recipient: Claimed) => {
    if (stop || Date.now() > deadline) return untried.push(recipient.subscriberId);
    if (rate > 0) {
      const budget = await throttle().consume("all", rate, 60);
      if (!budget.success) {
        stop ??= { retryInSeconds: Math.ceil(Math.max(budget.reset - Date.now(), 0) / 1000), resumeAt: new Date(budget.reset) };
        return untried.push(recipient.subscriberId);
      }
    }
    const message = personalize(rendered, source.site.home, recipient.unsubscribeToken);
    try {
      await sendNewsletterMessage({ ...message, to: recipient.email, senderName: source.site.title });
    } catch (error) {
      // Refused whatever the address (SMTP down, the login refused): the next batch waits as long as the retry.
      await recordRefusal(sql, blogId, recipient, error, (retryInSeconds) => (stop ??= { retryInSeconds, resumeAt: new Date(Date.now() + retryInSeconds * 1000) }));
      return;
    }
    await sql(MARK_SENT_SQL, [blogId, recipient.subscriberId]);
  };

  await Promise.all(
    Array.from({ length: Math.min(SMTP_CONNECTIONS, claimed.length) }, async () => {
      while (next < claimed.length) await sendOne(claimed[next++]!);
    }),
  );
  await release(sql, blogId, untried, stop?.retryInSeconds ?? 0);
  return stop?.resumeAt;
}

/**
 * What SMTP's refusal of one message means: a permanent refusal of the recipient (5xx to RCPT TO)
 * bounces the subscriber. Anything else is tried again later, and given up (failed, the subscriber
 * kept) after MAX_ATTEMPTS: a refusal for now (4xx), and a refusal that is not about the address
 * (the sender or the login refused, no connection), which also stops the batch (`stopBatch`), as it
 * would be the same for every subscriber: a misconfigured SMTP_URL never bounces the list.
 */
async function recordRefusal(sql: Sql, blogId: string, recipient: Claimed, error: unknown, stopBatch: (retryInSeconds: number) => void): Promise<void> {
  const { code, text, aboutRecipient } = smtpAnswer(error);
  const subscriberId = recipient.subscriberId;
  if (aboutRecipient && code !== undefined && code >= 500) {
    await sql(MARK_FAILED_SQL, [blogId, subscriberId, text, true]);
    log.info({ newsletter: { blogId, subscriberId, smtp: code } }, "newsletter email refused for good: subscriber bounced");
    return;
  }
  const attempts = recipient.attempts + 1;
  if (attempts >= MAX_ATTEMPTS) {
    await sql(MARK_FAILED_SQL, [blogId, subscriberId, text, false]);
    log.warn({ newsletter: { blogId, subscriberId, smtp: code ?? null, attempts } }, "newsletter email given up after its attempts");
    return;
  }
  await release(sql, blogId, [subscriberId], retryDelaySeconds(attempts), { error: text });
  log.warn({ newsletter: { blogId, subscriberId, smtp: code ?? null, attempts, reply: text } }, "newsletter email not accepted for now: tried again later");
  if (!aboutRecipient) stopBatch(retryDelaySeconds(attempts));
}

export const sendNewsletterJob = defineJob({ name: JOB_NAMES.sendNewsletter, payload: z.object({ blogId: z.string() }), run: sendNewsletterBatch });

/** Queues a batch of every newsletter still sending (at a worker's start, and each cron call): its job may have been lost, or never queued while the job engine was not installed. A batch already waiting keeps its time. */
export const QUEUE_SENDING_NEWSLETTERS_SQL = `SELECT graphile_worker.add_job('${JOB_NAMES.sendNewsletter}', json_build_object('blogId', "blogId"),
  job_key := '${JOB_NAMES.sendNewsletter}:' || "blogId", job_key_mode := 'preserve_run_at', max_attempts := 25)
FROM "newsletter" WHERE "status" = 'sending'`;
