import "server-only";
import { createHash, randomUUID } from "node:crypto";
import { createWriteStream } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { once } from "node:events";
import { z } from "zod";
import { Prisma } from "~/generated/prisma/client";
import { writeAs } from "~/server/blogs/change-source";
import { firstFreeSlug, slugify } from "~/server/blogs/slug";
import { getDb, type Db } from "~/server/db";
import { isUniqueViolation } from "~/server/db/prisma-errors";
import { findUploadedImage, saveImage } from "~/server/images/images";
import { processUpload } from "~/server/images/processing";
import { defineJob, JOB_NAMES } from "~/server/jobs/definition";
import { jobsDeadline } from "~/server/jobs/run-deadline";
import { log } from "~/server/runtime/log";
import { importSubscribers } from "~/server/subscribers/subscribers";
import { BLOG_FIELD_MAX_LENGTHS, SLUG_PATTERN } from "~/shared/blog-fields";
import { imagePath, sanitizeFileName, type ImageFormat } from "~/shared/images";
import { EMPTY_IMPORT_REPORT, importReportSchema, REPORT_LIST_LIMIT, type ImportReport } from "~/shared/imports";
import { subscriberEmailSchema, normalizeSubscriberEmail } from "~/shared/subscribers";
import { MAX_TAGS } from "~/shared/tags";
import { fetchImportImage } from "./fetch-image";
import { READERS } from "./formats";
import { IMPORT_JOB_ATTEMPTS, importJobKey, type ImportRecord } from "./imports";
import { markdownImageUrls, replaceImageUrls } from "./markdown-images";
import { oldPathBelow } from "./permalinks";
import { fileNameOf, importedTags, publishingOf } from "./post-mapping";
import { ImportFileError, type ImportSource, type SourcePost, type SourceSubscriber } from "./source";

/**
 * The import_run job (docs/migrating.md, How an import runs): the uploaded file, rebuilt from its
 * chunks, read by its format's reader, each post made a blog (with its images, tags, status and
 * old permalink), each subscriber added, the rest counted. Every item is idempotent by its source
 * id, so a run cut short (its worker died) is simply run again by graphile-worker: what the first
 * run made is found, not made twice. Progress and the report are saved every PROGRESS_ITEMS items
 * or PROGRESS_MS, so the owner sees them move.
 */

const PROGRESS_ITEMS = 50;
const PROGRESS_MS = 1_000;
/** Subscribers added per statement batch (importSubscribers' own batches are larger). */
const SUBSCRIBER_BATCH = 500;



interface Account {
  id: string;
  plan: Parameters<typeof saveImage>[1]["plan"];
}

/** A run of due jobs that must end (on Vercel) stops taking posts this long before: time for the post in hand and its images. */
const STOP_MARGIN_MS = 20_000;

/**
 * Runs (or resumes) the import; `onProgress` is told each time progress is saved (the CLI prints
 * it). A run cut short resumes after the items it had saved, its report going on from there: a
 * crash redoes at most the items since its last save (found by source id, not made twice). A run
 * that must end by a deadline (a run of due jobs on Vercel, ./run-deadline.ts) saves and calls
 * `continueLater` to queue the rest instead of being cut off.
 */
export async function runImport(
  db: Db,
  importId: string,
  options: { onProgress?: (row: ImportRecord) => void; lastAttempt?: boolean; continueLater?: () => Promise<unknown> } = {},
): Promise<ImportRecord> {
  const row = await db.import.findUnique({ where: { id: importId }, include: { account: { select: { id: true, plan: true } } } });
  if (!row || row.status === "done" || row.status === "failed" || row.undoneAt) return row as ImportRecord;
  const resumed = row.status === "running" ? { processed: row.processed, report: importReportSchema.parse(row.report) } : undefined;
  await db.import.update({ where: { id: importId }, data: { status: "running", startedAt: row.startedAt ?? new Date() } });
  const path = join(tmpdir(), `import-run-${randomUUID()}`);
  let source: ImportSource | undefined;
  try {
    await rebuildFile(db, row, path);
    source = await READERS[row.format](path);
    const run = new ImportRun(db, row, row.account, resumed, options.onProgress);
    const walked = await run.walk(source, jobsDeadline() - STOP_MARGIN_MS);
    if (!walked) {
      await options.continueLater?.();
      return await db.import.findUniqueOrThrow({ where: { id: importId } });
    }
    // Those a run cut short made are counted too (its posts are found, not made again, by the next).
    run.report.images = await db.image.count({ where: { importId } });
    const done = await db.import.update({
      where: { id: importId },
      data: { status: "done", finishedAt: new Date(), processed: run.processed, report: run.report as unknown as Prisma.InputJsonValue },
    });
    await db.importChunk.deleteMany({ where: { importId } });
    return done;
  } catch (error) {
    if (!(error instanceof ImportFileError) && !options.lastAttempt) throw error;
    log.warn({ err: error, importId }, "import failed");
    const message = error instanceof ImportFileError ? error.message : "The import stopped on an unexpected error; what it imported so far is kept (undo it, or import the file again)";
    const failed = await db.import.update({ where: { id: importId }, data: { status: "failed", finishedAt: new Date(), error: message } });
    await db.importChunk.deleteMany({ where: { importId } });
    return failed;
  } finally {
    await source?.close().catch(() => undefined);
    await rm(path, { force: true });
  }
}

/** The upload, from its chunks, one at a time (never the whole file in memory). */
async function rebuildFile(db: Db, row: ImportRecord, path: string): Promise<void> {
  const out = createWriteStream(path);
  let written = 0;
  try {
    for (let seq = 0; ; seq++) {
      const chunk = await db.importChunk.findUnique({ where: { importId_seq: { importId: row.id, seq } }, select: { data: true } });
      if (!chunk) break;
      written += chunk.data.byteLength;
      if (!out.write(chunk.data)) await once(out, "drain");
    }
  } finally {
    out.end();
    await once(out, "close");
  }
  if (written !== row.fileBytes) throw new ImportFileError(`The uploaded file was not kept whole (${written} of ${row.fileBytes} bytes): upload it again`);
}

/**
 * One run of an import. A run resumed after a crash starts from the last progress saved: the items
 * before it are counted in the saved report (saved with `processed`, subscribers flushed first),
 * so they are passed over; those after it are gone through again, each found if it was made.
 */
class ImportRun {
  report: ImportReport;
  processed = 0;
  private savedAt = Date.now();
  private savedItems: number;
  private subscribers: SourceSubscriber[] = [];
  /** Each image URL of the export as this run brought it in (or why it could not). */
  private images = new Map<string, Promise<{ id: string; url: string } | { reason: string }>>();
  /** Items an earlier run of this import went through and saved: passed over. */
  private readonly resumeAfter: number;

  constructor(
    private db: Db,
    private row: ImportRecord,
    private account: Account,
    resumed: { processed: number; report: ImportReport } | undefined,
    private onProgress?: (row: ImportRecord) => void,
  ) {
    this.report = resumed?.report ?? structuredClone(EMPTY_IMPORT_REPORT);
    this.resumeAfter = resumed?.processed ?? 0;
    this.processed = this.savedItems = this.resumeAfter;
  }

  /** Goes through the export's items; false when it stopped at `stopAt` (saved, the rest left for another run). */
  async walk(source: ImportSource, stopAt: number): Promise<boolean> {
    await this.db.import.update({ where: { id: this.row.id }, data: { total: source.total } });
    let index = 0;
    for await (const item of source.items()) {
      if (index++ < this.resumeAfter) continue;
      if (Date.now() >= stopAt) {
        await this.save();
        return false;
      }
      if (item.kind === "post") await this.importPost(source, item.post);
      else if (item.kind === "subscriber") {
        this.subscribers.push(item.subscriber);
        if (this.subscribers.length >= SUBSCRIBER_BATCH) await this.flushSubscribers();
      } else this.skip({ sourceId: item.sourceId, kind: item.what, title: item.title, reason: item.reason });
      this.processed++;
      if (this.processed - this.savedItems >= PROGRESS_ITEMS || Date.now() - this.savedAt >= PROGRESS_MS) await this.save();
    }
    await this.flushSubscribers();
    return true;
  }

  private async save(): Promise<void> {
    await this.flushSubscribers();
    const row = await this.db.import.update({
      where: { id: this.row.id },
      data: { processed: this.processed, report: this.report as unknown as Prisma.InputJsonValue },
    });
    this.savedAt = Date.now();
    this.savedItems = this.processed;
    this.onProgress?.(row);
  }

  private skip(item: ImportReport["skippedItems"][number]): void {
    this.report.skipped++;
    this.report.skippedByKind[item.kind] = (this.report.skippedByKind[item.kind] ?? 0) + 1;
    if (this.report.skippedItems.length < REPORT_LIST_LIMIT) this.report.skippedItems.push(item);
  }

  private change(item: ImportReport["changedItems"][number]): void {
    this.report.changed++;
    if (this.report.changedItems.length < REPORT_LIST_LIMIT) this.report.changedItems.push(item);
  }

  private failImage(item: ImportReport["failedImageItems"][number]): void {
    this.report.failedImages++;
    if (this.report.failedImageItems.length < REPORT_LIST_LIMIT) this.report.failedImageItems.push(item);
  }

  /**
   * Whether the account already has the post (by its source id), counted if so: this import's own
   * blog (made by a run cut short) as imported; another import's as already imported, left as it is.
   */
  private async foundMade(post: SourcePost): Promise<boolean> {
    const made = await this.db.blog.findUnique({ where: { userId_importSourceId: { userId: this.account.id, importSourceId: post.sourceId } }, select: { importId: true } });
    if (!made) return false;
    if (made.importId === this.row.id) this.report.imported++;
    else this.report.alreadyImported++;
    return true;
  }

  private async importPost(source: ImportSource, post: SourcePost): Promise<void> {
    if (await this.foundMade(post)) return;
    const changes: { change: ImportReport["changedItems"][number]["change"]; detail: string }[] = [];
    const images = new Map<string, string>();
    for (const url of markdownImageUrls(post.markdown)) {
      const ours = await this.bringImage(source, post, url);
      if (ours) images.set(url, ours.url);
    }
    const cover = post.coverImage ? await this.bringImage(source, post, post.coverImage) : null;
    let content = replaceImageUrls(post.markdown, (url) => images.get(url) ?? url);
    if (content.length > BLOG_FIELD_MAX_LENGTHS.content) {
      content = content.slice(0, BLOG_FIELD_MAX_LENGTHS.content);
      changes.push({ change: "content", detail: `The content was cut at ${BLOG_FIELD_MAX_LENGTHS.content.toLocaleString("en-US")} characters` });
    }
    for (const note of post.contentNotes) changes.push({ change: "content", detail: note });
    const tags = importedTags(post.tags);
    if (tags.cut.length > 0) changes.push({ change: "tags", detail: `At most ${MAX_TAGS} tags: left out ${tags.cut.join(", ")}` });
    const now = new Date();
    const publishing = publishingOf(post, now);
    if (publishing.note) changes.push({ change: "status", detail: publishing.note });
    const createdAt = post.createdAt ?? post.date ?? now;
    const title = (post.title.trim() || "Untitled").slice(0, BLOG_FIELD_MAX_LENGTHS.title);
    const wanted = slugify(post.slug || post.title);

    const write = () => writeAs(this.db, { by: "import" }, async (tx) => {
      const taken = new Set((await tx.blog.findMany({ where: { userId: this.account.id, blogSlug: { startsWith: wanted } }, select: { blogSlug: true } })).map((blog) => blog.blogSlug));
      const blogSlug = firstFreeSlug(wanted, (slug) => taken.has(slug));
      const blog = await tx.blog.create({
        data: {
          userId: this.account.id,
          title,
          blogSlug,
          description: post.excerpt.trim().slice(0, BLOG_FIELD_MAX_LENGTHS.description),
          content,
          isPublic: publishing.isPublic,
          publishAt: publishing.publishAt,
          publishedAt: publishing.publishedAt,
          seoTitle: post.seoTitle.slice(0, BLOG_FIELD_MAX_LENGTHS.seoTitle),
          seoDescription: post.seoDescription.slice(0, BLOG_FIELD_MAX_LENGTHS.seoDescription),
          tags: tags.kept,
          coverImageId: cover?.id ?? null,
          allowApiAccess: true,
          emailSubscribers: false,
          createdAt,
          updatedAt: post.updatedAt ?? createdAt,
          importId: this.row.id,
          importSourceId: post.sourceId,
        },
        select: { id: true, blogSlug: true },
      });
      const oldPath = this.row.oldUrl && post.oldPath ? oldPathBelow(this.row.oldUrl, post.oldPath) : null;
      if (oldPath) {
        await tx.importedPermalink.createMany({ data: [{ userId: this.account.id, path: oldPath, blogId: blog.id, importId: this.row.id }], skipDuplicates: true });
      }
      return blog;
    });
    // A writer in between (another import of the same file, a slug taken meanwhile) breaks a unique
    // index: the post made by another import is that one; a slug taken is looked for again.
    let created: { id: string; blogSlug: string } | undefined;
    for (let attempt = 1; !created; attempt++) {
      try {
        created = await write();
      } catch (error) {
        if (!isUniqueViolation(error) || attempt === 3) throw error;
        if (await this.foundMade(post)) return;
      }
    }
    const sourceSlug = post.slug.trim();
    if (created.blogSlug !== sourceSlug && (sourceSlug !== "" || created.blogSlug !== wanted)) {
      const detail = !sourceSlug
        ? `No slug in the export: ${created.blogSlug}, from the title`
        : created.blogSlug.startsWith(sourceSlug) && SLUG_PATTERN.test(sourceSlug)
          ? `The slug ${sourceSlug} was taken: ${created.blogSlug}`
          : `The slug ${sourceSlug} became ${created.blogSlug}`;
      changes.unshift({ change: "slug", detail });
    }
    this.report.imported++;
    for (const change of changes) this.change({ sourceId: post.sourceId, blogId: created.id, title, ...change });
  }

  /** One image a post uses, ours from now on: the export's bytes, else fetched; null (reported) when it cannot be. */
  private async bringImage(source: ImportSource, post: SourcePost, url: string): Promise<{ id: string; url: string } | null> {
    // An export uses an image in many posts (a shared cover, a logo): fetched and stored once a run.
    let brought = this.images.get(url);
    if (!brought) {
      brought = this.storeImage(source, url);
      this.images.set(url, brought);
    }
    const outcome = await brought;
    if ("reason" in outcome) {
      this.failImage({ sourceId: post.sourceId, url, reason: outcome.reason });
      return null;
    }
    return outcome;
  }

  private async storeImage(source: ImportSource, url: string): Promise<{ id: string; url: string } | { reason: string }> {
    try {
      let bytes = await source.asset(url);
      if (!bytes) {
        if (!/^https?:\/\//i.test(url)) throw new Error("not found in the export");
        bytes = await fetchImportImage(url);
      }
      const sha256 = createHash("sha256").update(bytes).digest("base64url");
      // Bytes the account already stores are that image: not processed again.
      let image = await findUploadedImage(this.db, this.account.id, sha256);
      if (!image) {
        const processed = await processUpload(new Uint8Array(bytes), { accountId: this.account.id });
        const saved = await saveImage(this.db, this.account, processed, { sha256, fileName: sanitizeFileName(fileNameOf(url), processed), importId: this.row.id });
        image = saved.image;
        if (saved.created) this.report.images++;
      }
      return { id: image.id, url: imagePath({ id: image.id, width: image.width, height: image.height, format: image.format as ImageFormat, variantsPending: image.variantsPending }) };
    } catch (error) {
      return { reason: error instanceof Error ? error.message : String(error) };
    }
  }

  private async flushSubscribers(): Promise<void> {
    if (this.subscribers.length === 0) return;
    const batch = this.subscribers;
    this.subscribers = [];
    const entries = [];
    const invalid = [];
    for (const [index, subscriber] of batch.entries()) {
      const email = normalizeSubscriberEmail(subscriber.email);
      if (subscriberEmailSchema.safeParse(email).success) entries.push({ line: index + 1, email, name: subscriber.name.trim().slice(0, 200), unsubscribed: subscriber.status === "unsubscribed" });
      else invalid.push({ line: index + 1, email: email.slice(0, 254) });
    }
    const added = await importSubscribers(this.db, this.account, entries, invalid, { importId: this.row.id });
    this.report.subscribers += added.added + added.addedUnsubscribed;
    this.report.subscribersAlreadyPresent += added.alreadyThere;
    for (const skipped of added.skipped) this.skip({ sourceId: `subscriber:${skipped.email}`, kind: "subscriber", title: skipped.email, reason: skipped.reason });
  }
}

/**
 * The import_run job: runs the import; its last attempt fails the import rather than leaving it
 * running. A run stopped by its deadline queues the rest under the import's job key (./imports.ts):
 * this job holds the key while it runs, so graphile-worker makes the continuation a new job.
 */
export const runImportJob = defineJob({
  name: JOB_NAMES.runImport,
  payload: z.object({ importId: z.string() }),
  async run({ importId }, helpers) {
    // One run of an import at a time: a session lock, which PostgreSQL releases when the run's
    // connection closes, so a worker that died (SIGKILL, a host lost) holds it no more and the job
    // queued again at the next worker's start (QUEUE_UNFINISHED_IMPORTS_SQL) resumes the import;
    // while a live worker holds it, that job has nothing to do.
    await helpers.withPgClient(async (client) => {
      const { rows } = await client.query<{ locked: boolean }>(`SELECT pg_try_advisory_lock(hashtext($1)) AS "locked"`, [importJobKey(importId)]);
      if (!rows[0]?.locked) return;
      try {
        await runImport(getDb(), importId, {
          lastAttempt: helpers.job.attempts >= Math.min(helpers.job.max_attempts, IMPORT_JOB_ATTEMPTS),
          // Due a little later: taken now, it would find this run's lock still held, and end.
          continueLater: () =>
            helpers.addJob(JOB_NAMES.runImport, { importId }, { jobKey: importJobKey(importId), jobKeyMode: "replace", runAt: new Date(Date.now() + 5_000), maxAttempts: IMPORT_JOB_ATTEMPTS }),
        });
      } finally {
        await client.query(`SELECT pg_advisory_unlock(hashtext($1))`, [importJobKey(importId)]);
      }
    });
  },
});
