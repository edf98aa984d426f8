import "server-only";
// Emails are queued as graphile-worker jobs in the app's database and sent by the job worker
// (src/server/email/send-email.ts), never on a request's path: a slow or unreachable SMTP server
// delays an email, never an answer, and a queued email survives restarts (docs/security.md, Email).
import { waitUntil } from "@vercel/functions";
import { makeWorkerUtils } from "graphile-worker";
import { env } from "~/env";
import { getSqlPool, sessionDatabaseUrl, type SqlPool } from "~/server/db";
import { JOB_NAMES } from "~/server/jobs/definition";
import { runDueJobs } from "~/server/jobs/worker";
import { log } from "~/server/runtime/log";
import type { Email } from "./messages";

/** graphile-worker retries with exponential backoff (e^attempt seconds): 25 attempts span about three days. */
const EMAIL_JOB_ATTEMPTS = 25;

const QUEUE_EMAIL_SQL = `SELECT graphile_worker.add_job('${JOB_NAMES.sendEmail}', $1::json, max_attempts := ${EMAIL_JOB_ATTEMPTS})`;

// Once per process: the job engine's schema, which the worker installs when it starts, exists
// before the first email is queued (a deployment whose worker has not run yet keeps its emails).
let engineInstalled: Promise<void> | undefined;

function jobEngineInstalled(): Promise<void> {
  engineInstalled ??= (async () => {
    const utils = await makeWorkerUtils({ connectionString: sessionDatabaseUrl(), noPreparedStatements: true });
    try {
      await utils.migrate();
    } finally {
      await utils.release();
    }
  })().catch((error: unknown) => {
    engineInstalled = undefined;
    throw error;
  });
  return engineInstalled;
}

/** Queues `email`, on `client` when given (a transaction's), else on the app's pool. */
export async function queueEmail(email: Email, client: SqlPool = getSqlPool()): Promise<void> {
  await jobEngineInstalled();
  await client.query(QUEUE_EMAIL_SQL, [JSON.stringify(email)]);
}

/**
 * On Vercel no worker runs between the minute cron's calls (src/app/api/cron/jobs): the jobs due
 * now, this request's email among them, are run once the answer has gone, not up to a minute later.
 */
export function sendQueuedEmailsOnVercel(): void {
  const databaseUrl = sessionDatabaseUrl();
  if (env.VERCEL !== "1" || !databaseUrl) return;
  waitUntil(runDueJobs(databaseUrl).catch((error: unknown) => log.warn({ err: error }, "could not run the queued jobs after the answer")));
}
