import "server-only";
/**
 * What a background job is (docs/webhooks.md, Running the worker): its name, the shape of its
 * payload and what it does. Job names are written here and nowhere else in src/: SQL that queues
 * a job interpolates them, and tests/db/migration-jobs.test.ts checks those the migrations queue.
 */
import type { JobHelpers, Task, WorkerUtils } from "graphile-worker";
import type { z } from "zod";
import { actingAs } from "~/server/audit/context";
import { auditWrites } from "~/server/db/audit-writes";

export const JOB_NAMES = {
  publishBlog: "blog_publish",
  publishOverdueBlogs: "blog_publish_catch_up",
  fanOutWebhookEvents: "webhook_fanout",
  deliverWebhook: "webhook_deliver",
  maintainWebhooks: "webhook_maintenance",
  sendEmail: "send_email",
  makeImageVariants: "image_variants",
  sendNewsletter: "newsletter_send",
  runImport: "import_run",
  purgeAuditLog: "audit_log_purge",
} as const;

export type JobName = (typeof JOB_NAMES)[keyof typeof JOB_NAMES];

/** The engine running a job, for work on graphile-worker's own tables (its utilities, logged as the worker is). */
export interface JobEngine {
  withUtils<T>(work: (utils: WorkerUtils) => Promise<T>): Promise<T>;
}

export interface JobDefinition<Payload = unknown> {
  name: JobName;
  /** The payload's shape: a job queued with another one fails before `run`, rather than running on a cast. */
  payload: z.ZodType<Payload>;
  run(payload: Payload, helpers: JobHelpers, engine: JobEngine): Promise<void>;
}

export function defineJob<Payload>(definition: JobDefinition<Payload>): JobDefinition<Payload> {
  return definition;
}

/**
 * The job as graphile-worker runs it. A payload its schema refuses fails the job with the issues
 * in the error, which the worker logs (`Failed task … (name, …) with error '…'`) and retries as
 * any failure (a job queued by hand or by older code may be fixed in the meantime).
 */
export function jobTask<Payload>(definition: JobDefinition<Payload>, engine: JobEngine): Task {
  return async (payload, helpers) => {
    const parsed = definition.payload.safeParse(payload);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((issue) => `${issue.path.join(".") || "payload"}: ${issue.message}`).join("; ");
      throw new Error(`${definition.name} job: invalid payload (${issues})`);
    }
    // Its changes are the job's in the audit log (docs/audit-log.md), on graphile-worker's
    // connections as on the app's (src/server/db/audit-writes.ts).
    const withPgClient: JobHelpers["withPgClient"] = (work) =>
      helpers.withPgClient((client) => {
        auditWrites(client);
        return work(client);
      });
    const audited: JobHelpers = Object.assign(Object.create(helpers) as JobHelpers, { withPgClient });
    await actingAs({ kind: "job", id: helpers.job?.id, name: definition.name }, () => definition.run(parsed.data, audited, engine));
  };
}
