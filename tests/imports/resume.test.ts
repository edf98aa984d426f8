import { describe, expect, it } from "vitest";
import { createImport } from "~/server/imports/imports";
import { runImport } from "~/server/imports/run-import";
import { withJobsEndingBy } from "~/server/jobs/run-deadline";
import { createTestAccount, db } from "../support/api";
import { zipOf } from "./sources";

/**
 * An import cut short goes on where it saved (docs/migrating.md, How an import runs): after its
 * process died (here: its progress callback throws right after a save, as a crash there would),
 * and at the end of a run of due jobs on Vercel (a deadline), which queues the rest rather than
 * being cut off. Run in this process, as the CLI runs imports, with no job queued.
 */
const POSTS = 120;

async function markdownImport(accountId: string) {
  const entries = Object.fromEntries(
    Array.from({ length: POSTS }, (_, n) => [`_posts/2024-01-${String((n % 28) + 1).padStart(2, "0")}-post-${n}.md`, `---\ntitle: Post ${n}\ntags: [a, b]\n---\nBody ${n}.\n`]),
  );
  const file = new Blob([new Uint8Array(await zipOf(entries))]);
  return createImport(db(), accountId, { file, fileName: "posts.zip" }, { queue: false });
}

const blogsOf = (userId: string) => db().blog.findMany({ where: { userId }, select: { blogSlug: true, importSourceId: true } });

describe("an import cut short", () => {
  it("resumes after the items it saved, making nothing twice", async () => {
    const account = await createTestAccount();
    const { id } = await markdownImport(account.id);
    let saves = 0;
    const crash = () => {
      if (++saves === 1) throw new Error("the process died here");
    };
    await expect(runImport(db(), id, { onProgress: crash })).rejects.toThrow("the process died here");
    const cut = await db().import.findUniqueOrThrow({ where: { id } });
    expect(cut.status).toBe("running");
    expect(cut.processed).toBeGreaterThan(0);
    expect(cut.processed).toBeLessThan(POSTS);

    const done = await runImport(db(), id);
    expect(done.status).toBe("done");
    expect(done.processed).toBe(POSTS);
    expect(done.report).toMatchObject({ imported: POSTS, alreadyImported: 0, skipped: 0 });
    // Each post once, under its own slug: none half-made then made again with a suffix.
    const slugs = (await blogsOf(account.id)).map((blog) => blog.blogSlug).sort();
    expect(slugs).toEqual(Array.from({ length: POSTS }, (_, n) => `post-${n}`).sort());
  });

  it("stops at a run's deadline, queues the rest, and the rest finishes it", async () => {
    const account = await createTestAccount();
    const { id } = await markdownImport(account.id);
    let continued = 0;
    // A deadline already too near for another post: the run saves and hands over at once.
    const stopped = await withJobsEndingBy(Date.now() + 1_000, () => runImport(db(), id, { continueLater: async () => void continued++ }));
    expect(continued).toBe(1);
    expect(stopped).toMatchObject({ status: "running", processed: 0 });
    expect(await blogsOf(account.id)).toHaveLength(0);

    const done = await runImport(db(), id, { continueLater: async () => void continued++ });
    expect(continued).toBe(1);
    expect(done.status).toBe("done");
    expect(done.report).toMatchObject({ imported: POSTS });
    expect(await blogsOf(account.id)).toHaveLength(POSTS);
  });
});
