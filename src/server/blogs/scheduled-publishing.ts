import "server-only";
// Scheduled publishing (docs/api.md, publishing): a trigger on "blog" keeps one graphile-worker job
// per scheduled blog (key blog_publish:<id>, run at its publishAt; see the publishing migration).
// Each statement here publishes only blogs still due, in one UPDATE, so however many workers run
// a job (several instances, a retry after a crash) a blog is published once: one blog.published.
import { z } from "zod";
import { defineJob, JOB_NAMES } from "~/server/jobs/definition";
import { forgetPublicPages } from "~/server/public-site/forget";

/** Publishes one blog if it is still scheduled and due. */
const PUBLISH_DUE_BLOG_SQL = `UPDATE "blog" SET "isPublic" = true, "updatedAt" = now()
WHERE "id" = $1 AND NOT "isPublic" AND "publishAt" <= now() RETURNING "userId"`;

/** Publishes every overdue blog (the catch-up at each start and cron call). */
const PUBLISH_OVERDUE_SQL = `UPDATE "blog" SET "isPublic" = true, "updatedAt" = now() WHERE "publishAt" <= now() AND NOT "isPublic" RETURNING "userId"`;

/** Makes sure each scheduled blog has its job (one scheduled before the job engine was installed has none; an existing job keeps its time). */
const SCHEDULE_MISSING_JOBS_SQL = `SELECT graphile_worker.add_job('${JOB_NAMES.publishBlog}', json_build_object('blogId', "id"), run_at := "publishAt",
     job_key := '${JOB_NAMES.publishBlog}:' || "id", job_key_mode := 'preserve_run_at', max_attempts := 25)
   FROM "blog" WHERE "publishAt" > now()`;

/** The public pages of the accounts whose blogs were just published are made again (src/server/public-site/forget.ts). */
async function forgetPagesOf(rows: { userId: string }[]): Promise<void> {
  for (const userId of new Set(rows.map((row) => row.userId))) await forgetPublicPages(userId);
}

/** Publishes one scheduled blog at its moment, queued by the trigger. */
export const publishBlogJob = defineJob({
  name: JOB_NAMES.publishBlog,
  payload: z.object({ blogId: z.string() }),
  async run({ blogId }, helpers) {
    const { rows } = await helpers.withPgClient((client) => client.query<{ userId: string }>(PUBLISH_DUE_BLOG_SQL, [blogId]));
    await forgetPagesOf(rows);
  },
});

/** The catch-up, queued at each start and cron call (src/server/jobs/worker.ts): every overdue blog, and the jobs of those scheduled without one. */
export const publishOverdueBlogsJob = defineJob({
  name: JOB_NAMES.publishOverdueBlogs,
  payload: z.object({}),
  async run(_payload, helpers) {
    const published = await helpers.withPgClient(async (client) => {
      const { rows } = await client.query<{ userId: string }>(PUBLISH_OVERDUE_SQL);
      await client.query(SCHEDULE_MISSING_JOBS_SQL);
      return rows;
    });
    await forgetPagesOf(published);
  },
});
