import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { JOB_NAMES } from "~/server/jobs/definition";
import { JOBS } from "~/server/jobs/registry";

const MIGRATIONS = "prisma/migrations";

/** Every call queueing a job in the migrations' SQL (triggers, functions), with the name it queues, or null when not written as a literal. */
function queuedJobs(): { migration: string; call: string; name: string | null }[] {
  return readdirSync(MIGRATIONS, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => {
      const sql = readFileSync(join(MIGRATIONS, entry.name, "migration.sql"), "utf8");
      return [...sql.matchAll(/\badd_jobs?\s*\(\s*(?:identifier\s*:=\s*)?('([^']*)')?[^\n]*/g)].map((match) => ({
        migration: entry.name,
        call: match[0],
        name: match[2] ?? null,
      }));
    });
}

describe("the job registry (src/server/jobs/registry.ts)", () => {
  it("defines every job name once", () => {
    expect(JOBS.map((job) => job.name).sort()).toEqual(Object.values(JOB_NAMES).sort());
  });

  it("holds every job the migrations queue, each named as a literal", () => {
    const queued = queuedJobs();
    // The migrations queue webhook dispatch and scheduled publishing: a pattern finding none is broken.
    expect(queued.map((job) => job.name)).toEqual(expect.arrayContaining([JOB_NAMES.fanOutWebhookEvents, JOB_NAMES.publishBlog]));
    const registered = new Set<string>(JOBS.map((job) => job.name));
    expect(queued.filter((job) => job.name === null || !registered.has(job.name))).toEqual([]);
  });
});
