import "server-only";
// Runs the background jobs on graphile-worker, in the same PostgreSQL as the app, so jobs survive
// restarts: the jobs of ./registry.ts (webhook deliveries, scheduled publishing, emails). The production server and `npm run dev` run a worker
// in process; on Vercel the Cron route drains due jobs every minute (docs/webhooks.md).
import { EventEmitter } from "node:events";
import { Logger, makeWorkerUtils, parseCronItems, run, runOnce, type LogFunctionFactory, type WorkerEvents, type WorkerUtils } from "graphile-worker";
import { log } from "~/server/runtime/log";
import { JOB_NAMES } from "./definition";
import { jobTaskList } from "./registry";
import { foreignImageStoreFlags } from "~/server/images/store";
import { QUEUE_MISSING_IMAGE_VARIANTS_SQL, queueImageVariantsParams } from "~/server/images/images";
import { QUEUE_SENDING_NEWSLETTERS_SQL } from "~/server/newsletters/send";
import { withJobsEndingBy } from "./run-deadline";
import { QUEUE_UNFINISHED_IMPORTS_SQL } from "~/server/imports/imports";

/** How often the worker looks for jobs that became due (retries); new jobs also arrive by NOTIFY. */
const POLL_INTERVAL_MS = 500;
/** Jobs in flight at once across all endpoints (each waits on HTTP, not on the CPU); each holds a connection only briefly. */
const CONCURRENT_JOBS = 8;
/** How long a run of the due jobs may take: under the cron function's 60 s, with room to answer. */
const DUE_JOBS_RUN_MS = 55_000;
/**
 * Queued at each start and cron call: the dispatch of every event still undispatched, and the
 * publication of overdue scheduled blogs (with the jobs of any scheduled while no engine was installed).
 */
const SWEEPS = [
  { task: JOB_NAMES.fanOutWebhookEvents, jobKey: `${JOB_NAMES.fanOutWebhookEvents}_sweep` },
  { task: JOB_NAMES.publishOverdueBlogs, jobKey: JOB_NAMES.publishOverdueBlogs },
] as const;

const logFactory: LogFunctionFactory = (scope) => (level, message, meta) => {
  const fields = { worker: scope.label ?? "graphile-worker", ...(meta?.error ? { err: meta.error } : {}) };
  if (level === "error") log.error(fields, message);
  else if (level === "warning") log.warn(fields, message);
  else log.debug(fields, message);
};
const logger = new Logger(logFactory);

/** graphile-worker's utilities on the worker's database, released after `work`. */
async function withWorkerUtils<T>(connectionString: string, work: (utils: WorkerUtils) => Promise<T>): Promise<T> {
  const utils = await makeWorkerUtils({ connectionString, logger, noPreparedStatements: true });
  try {
    return await work(utils);
  } finally {
    await utils.release();
  }
}

function options(connectionString: string) {
  // No named prepared statements: embedded PostgreSQL has one session for all connections
  // (src/server/db/embedded.ts), where a second connection preparing the same name fails.
  const taskList = jobTaskList({ withUtils: (work) => withWorkerUtils(connectionString, work) });
  // An image's variants are made where its files are read (src/server/images/store.ts).
  const forbiddenFlags = foreignImageStoreFlags();
  return { connectionString, logger, taskList, forbiddenFlags, noHandleSignals: true, noPreparedStatements: true, maxPoolSize: CONCURRENT_JOBS + 2 };
}

export interface JobWorker {
  /** Lets the jobs in flight finish, then stops taking jobs. */
  stop(): Promise<void>;
}

/**
 * Images uploaded while no job engine was installed get their variants job now; newsletters still
 * sending get a batch (their job lost, or never queued without the engine: src/server/newsletters/send.ts);
 * imports not finished get their job (src/server/imports/imports.ts).
 */
async function queueMissedWork(utils: WorkerUtils): Promise<void> {
  await utils.withPgClient(async (client) => {
    await client.query(QUEUE_MISSING_IMAGE_VARIANTS_SQL, [...queueImageVariantsParams(null)]);
    await client.query(QUEUE_SENDING_NEWSLETTERS_SQL);
    await client.query(QUEUE_UNFINISHED_IMPORTS_SQL, [null]);
  });
}

/** Starts the in-process worker (installing or upgrading graphile-worker's schema first). */
export async function startJobWorker(connectionString: string): Promise<JobWorker> {
  const events: WorkerEvents = new EventEmitter();
  const poolIds: string[] = [];
  events.on("pool:create", ({ workerPool }) => poolIds.push(workerPool.id));
  const runner = await run({
    ...options(connectionString),
    events,
    concurrency: CONCURRENT_JOBS,
    pollInterval: POLL_INTERVAL_MS,
    // backfillPeriod 0: an hour missed while stopped is not caught up; the next one does the same work.
    // The audit log's purge daily at 03:17 UTC (docs/audit-log.md); a day missed is done the next.
    parsedCronItems: parseCronItems([
      { task: JOB_NAMES.maintainWebhooks, match: "0 * * * *", options: { backfillPeriod: 0 } },
      { task: JOB_NAMES.purgeAuditLog, match: "17 3 * * *", options: { backfillPeriod: 0 } },
    ]),
  });
  // Events recorded and moments passed while no worker ran (or before the job engine was installed) are caught up now.
  for (const sweep of SWEEPS) await runner.addJob(sweep.task, {}, { jobKey: sweep.jobKey });
  await withWorkerUtils(connectionString, queueMissedWork);
  log.info("Job worker started");
  return {
    async stop() {
      await runner.stop();
      await releaseLeftLocks(connectionString, poolIds);
    },
  };
}

/**
 * A job taken from the database as the worker stopped can stay locked by it, and with it its
 * named queue: every later delivery to that endpoint in the queue would wait for graphile-worker's
 * 4-hour lock timeout (seen in tests/webhooks/scheduled-publishing.test.ts, a stop right after a
 * write). Nothing of this worker runs any more, so its locks are released for the next worker.
 */
async function releaseLeftLocks(connectionString: string, poolIds: string[]): Promise<void> {
  if (poolIds.length === 0) return;
  await withWorkerUtils(connectionString, (utils) => utils.forceUnlockWorkers(poolIds)).catch((error: unknown) =>
    log.warn({ err: error }, "could not release the stopped job worker's locks"),
  );
}

/** Vercel Cron: queues the sweeps and the hourly maintenance, then runs every job that is due and returns. */
export async function runDueJobs(connectionString: string): Promise<void> {
  await withWorkerUtils(connectionString, async (utils) => {
    await utils.migrate();
    for (const sweep of SWEEPS) await utils.addJob(sweep.task, {}, { jobKey: sweep.jobKey });
    await queueMissedWork(utils);
    const nextHour = new Date(Math.ceil(Date.now() / 3_600_000) * 3_600_000);
    await utils.addJob(JOB_NAMES.maintainWebhooks, {}, { jobKey: JOB_NAMES.maintainWebhooks, jobKeyMode: "preserve_run_at", runAt: nextHour });
    const nextDay = new Date(Math.ceil(Date.now() / 86_400_000) * 86_400_000 + 11_820_000); // 03:17 UTC
    await utils.addJob(JOB_NAMES.purgeAuditLog, {}, { jobKey: JOB_NAMES.purgeAuditLog, jobKeyMode: "preserve_run_at", runAt: nextDay });
  });
  // Its function may run 60 s (src/app/api/cron/jobs/route.ts, maxDuration): newsletter batches and imports end before.
  await withJobsEndingBy(Date.now() + DUE_JOBS_RUN_MS, () => runOnce(options(connectionString)));
}
