import "server-only";
/** Every background job, one definition each (./definition.ts): the job worker runs these and no other. */
import type { TaskList } from "graphile-worker";
import { purgeAuditLogJob } from "~/server/audit/retention";
import { publishBlogJob, publishOverdueBlogsJob } from "~/server/blogs/scheduled-publishing";
import { sendEmailJob } from "~/server/email/send-email";
import { makeImageVariantsJob } from "~/server/images/variants";
import { runImportJob } from "~/server/imports/run-import";
import { sendNewsletterJob } from "~/server/newsletters/send";
import { deliverWebhookJob, fanOutWebhookEventsJob, maintainWebhooksJob } from "~/server/webhooks/tasks";
import { jobTask, type JobDefinition, type JobEngine } from "./definition";

export const JOBS: readonly JobDefinition[] = [
  publishBlogJob,
  publishOverdueBlogsJob,
  fanOutWebhookEventsJob,
  deliverWebhookJob,
  maintainWebhooksJob,
  sendEmailJob,
  makeImageVariantsJob,
  sendNewsletterJob,
  runImportJob,
  purgeAuditLogJob,
];

/** graphile-worker's task list: each job by its name. */
export function jobTaskList(engine: JobEngine): TaskList {
  return Object.fromEntries(JOBS.map((job) => [job.name, jobTask(job, engine)]));
}
