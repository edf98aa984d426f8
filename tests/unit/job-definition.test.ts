import type { JobHelpers } from "graphile-worker";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { defineJob, JOB_NAMES, jobTask, type JobEngine } from "~/server/jobs/definition";

/** Neither is used by the job under test: it is passed along as it is. */
const engine = {} as JobEngine;
const helpers = {} as JobHelpers;

function publishJob() {
  const run = vi.fn<(payload: { blogId: string }, helpers: JobHelpers, engine: JobEngine) => Promise<void>>(async () => undefined);
  return { run, task: jobTask(defineJob({ name: JOB_NAMES.publishBlog, payload: z.object({ blogId: z.string() }), run }), engine) };
}

describe("a job's task", () => {
  it("runs the job on its payload as its schema parses it", async () => {
    const { run, task } = publishJob();
    await task({ blogId: "b1", extra: true }, helpers);
    // The helpers as graphile-worker gave them, but for withPgClient, whose clients name the job for the audit log.
    expect(run).toHaveBeenCalledWith({ blogId: "b1" }, expect.anything(), engine);
    expect(Object.getPrototypeOf(run.mock.calls[0]![1])).toBe(helpers);
  });

  it("fails a payload of another shape, naming the job and the field, without running it", async () => {
    const { run, task } = publishJob();
    await expect(task({ blogId: 42 }, helpers)).rejects.toThrow(/^blog_publish job: invalid payload \(blogId: .*expected string/);
    await expect(task(null, helpers)).rejects.toThrow(/^blog_publish job: invalid payload \(payload: /);
    expect(run).not.toHaveBeenCalled();
  });
});
