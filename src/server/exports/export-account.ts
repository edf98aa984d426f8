import "server-only";
import { Readable, type Writable } from "node:stream";
import { finished, pipeline } from "node:stream/promises";
import { ZipFile } from "yazl";
import { DomainError } from "~/server/common/domain-error";
import type { Db } from "~/server/db";
import { imageStore } from "~/server/images/store";
import { subscribersCsv } from "~/server/subscribers/csv";
import { allSubscribers } from "~/server/subscribers/subscribers";
import { originalFileName, type ImageFormat } from "~/shared/images";
import { exportedBlogs } from "./exported-blog";
import { ghostJson } from "./ghost-json";
import { exportedImagePath, type ExportedImage } from "./image-paths";
import { markdownFile, markdownFilePath } from "./markdown-file";

/** Entries are byte streams (Readable.from makes object streams by default). */
const BYTES = { objectMode: false } as const;

/** What an export holds. */
export interface ExportCounts {
  blogs: number;
  images: number;
  subscribers: number;
}

/**
 * Everything an account has written, as one zip (docs/migrating.md, Export): ghost.json, a Ghost 5
 * export of the blogs; posts/{slug}.md, each blog as Markdown with front matter; content/images/,
 * each image's original; subscribers.csv, the email list. Written to `output` as it is made, one
 * entry at a time, the next read from the database or the image store only once the last is
 * written: an account of any size takes the memory of its largest image. Rejects when `output`
 * closes before the end (the download cancelled).
 */
export async function exportAccount(db: Db, accountId: string, output: Writable): Promise<ExportCounts> {
  const account = await db.user.findUnique({ where: { id: accountId }, select: { id: true, name: true, email: true, handle: true } });
  if (!account) throw new DomainError("RESOURCE_NOT_FOUND", "No such account");
  // An image's row is small; the list lets blogs name every image by its path in the zip.
  const rows = await db.image.findMany({
    where: { userId: accountId },
    orderBy: { id: "asc" },
    select: { id: true, fileName: true, width: true, height: true, format: true },
  });
  const images = new Map<string, ExportedImage>(rows.map((image) => [image.id, { ...image, format: image.format as ImageFormat }]));

  const zip = new ZipFile();
  const written = pipeline(zip.outputStream, output);
  // Resolves once yazl has read the entry; rejects at once when the output is gone.
  const add = async (path: string, source: Readable, compress = true) => {
    zip.addReadStream(source, path, { compress });
    await Promise.race([finished(source), written.then(() => Promise.reject(new Error("the zip ended before its entries")))]);
  };
  const counts: ExportCounts = { blogs: 0, images: 0, subscribers: 0 };
  try {
    await add("ghost.json", Readable.from(ghostJson(db, account, images), BYTES));
    for await (const batch of exportedBlogs(db, accountId)) {
      for (const blog of batch) {
        await add(markdownFilePath(blog), Readable.from([Buffer.from(markdownFile(blog, images))], BYTES));
        counts.blogs += 1;
      }
    }
    for (const image of images.values()) {
      const original = await imageStore().read(image.id, originalFileName(image));
      // A file the store lost is left out rather than failing the whole export.
      if (!original) continue;
      // Already compressed: stored as they are.
      await add(exportedImagePath(image), Readable.from([original], BYTES), false);
      counts.images += 1;
    }
    await add("subscribers.csv", Readable.from(subscriberRows(db, accountId, counts), BYTES));
    zip.end();
    await written;
  } catch (error) {
    // The output is gone, or the database failed: the download ends broken rather than hanging.
    output.destroy(error as Error);
    throw error;
  }
  return counts;
}

/** The email list as CSV, the header first, a batch at a time. */
async function* subscriberRows(db: Db, accountId: string, counts: ExportCounts): AsyncGenerator<string> {
  let header = true;
  for await (const batch of allSubscribers(db, accountId)) {
    yield subscribersCsv(batch, header);
    header = false;
    counts.subscribers += batch.length;
  }
  if (header) yield subscribersCsv([], true);
}
