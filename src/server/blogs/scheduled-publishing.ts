import "server-only";
// Scheduled publishing (docs/api.md, publishing): a trigger on "blog" keeps one graphile-worker job
// per scheduled blog (key blog_publish:<id>, run at its publishAt; see the publishing migration).
// Each statement here publishes only blogs still due, in one UPDATE, so however many workers run
// a job (several instances, a retry after a crash) a blog is published once: one blog.published.
import type { JobHelpers, TaskList } from "graphile-worker";

/** Publishes one blog if it is still scheduled and due. */
export const PUBLISH_DUE_BLOG_SQL = `UPDATE "blog" SET "isPublic" = true, "updatedAt" = now()
WHERE "id" = $1 AND NOT "isPublic" AND "publishAt" <= now()`;

/**
 * Publishes every overdue blog, then makes sure each scheduled blog has its job (one scheduled
 * before the job engine was installed has none; an existing job keeps its time).
 */
export const CATCH_UP_SCHEDULED_SQL = [
  `UPDATE "blog" SET "isPublic" = true, "updatedAt" = now() WHERE "publishAt" <= now() AND NOT "isPublic"`,
  `SELECT graphile_worker.add_job('blog_publish', json_build_object('blogId', "id"), run_at := "publishAt",
     job_key := 'blog_publish:' || "id", job_key_mode := 'preserve_run_at', max_attempts := 25)
   FROM "blog" WHERE "publishAt" > now()`,
];

export const PUBLISHING_TASKS: TaskList = {
  async blog_publish(payload, helpers: JobHelpers) {
    const { blogId } = payload as { blogId: string };
    await helpers.withPgClient((client) => client.query(PUBLISH_DUE_BLOG_SQL, [blogId]));
  },
  async blog_publish_catch_up(_payload, helpers: JobHelpers) {
    await helpers.withPgClient(async (client) => {
      for (const statement of CATCH_UP_SCHEDULED_SQL) await client.query(statement);
    });
  },
};
