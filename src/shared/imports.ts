import { z } from "zod";

/**
 * Imports of another platform's export (docs/migrating.md): the one definition of an import as the
 * API, the dashboard and the CLI show it, of its report, and of the bounds every file is held to.
 */

export const IMPORT_FORMATS = ["wordpress", "ghost", "substack", "markdown"] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

export const IMPORT_STATUSES = ["queued", "running", "done", "failed"] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

/** An uploaded file, archive or not, at most this big (413 PAYLOAD_TOO_LARGE beyond). */
export const MAX_IMPORT_BYTES = 200 * 1024 * 1024;
/** An archive's entries, at most. */
export const MAX_ARCHIVE_ENTRIES = 10_000;
/** An archive's entries uncompressed, together, at most: a zip bomb is refused before it is inflated. */
export const MAX_ARCHIVE_UNCOMPRESSED_BYTES = 1024 * 1024 * 1024;
/** One entry inflated, at most (a post's HTML, an image, a JSON export). */
export const MAX_ARCHIVE_ENTRY_BYTES = 200 * 1024 * 1024;
/** An entry may inflate at most this many times its compressed size (deflate's best is about 1,000). */
export const MAX_COMPRESSION_RATIO = 1_100;
/** Items of each list kept in a report (the counts count them all). */
export const REPORT_LIST_LIMIT = 200;

/** A source item left out, and why: a page, a comment, a menu item, an attachment, … */
export const skippedItemSchema = z.object({
  sourceId: z.string(),
  kind: z.string(),
  title: z.string(),
  reason: z.string(),
});

/** A post imported with a change: its slug suffixed (taken), its tags cut at 10, an embed kept as a link, … */
export const changedItemSchema = z.object({
  sourceId: z.string(),
  blogId: z.string(),
  title: z.string(),
  change: z.enum(["slug", "tags", "content", "status"]),
  detail: z.string(),
});

/** An image the content used that could not be brought in: the Markdown keeps its old URL. */
export const failedImageSchema = z.object({
  sourceId: z.string(),
  url: z.string(),
  reason: z.string(),
});

export const importReportSchema = z.object({
  /** Posts that became blogs. */
  imported: z.number().int(),
  /** Posts an earlier import of the account brought in (same source id): left as they are. */
  alreadyImported: z.number().int(),
  skipped: z.number().int(),
  /** Skipped items by kind ("page": 3, "comment": 12). */
  skippedByKind: z.record(z.string(), z.number().int()),
  changed: z.number().int(),
  /** Images brought in (stored as the account's images) and those that failed. */
  images: z.number().int(),
  failedImages: z.number().int(),
  /** Subscribers added from the export's email list; those the account already had are left as they are. */
  subscribers: z.number().int(),
  subscribersAlreadyPresent: z.number().int(),
  /** The first REPORT_LIST_LIMIT of each. */
  skippedItems: z.array(skippedItemSchema),
  changedItems: z.array(changedItemSchema),
  failedImageItems: z.array(failedImageSchema),
});
export type ImportReport = z.infer<typeof importReportSchema>;
export type SkippedItem = z.infer<typeof skippedItemSchema>;
export type ChangedItem = z.infer<typeof changedItemSchema>;
export type FailedImage = z.infer<typeof failedImageSchema>;

export const EMPTY_IMPORT_REPORT: ImportReport = {
  imported: 0,
  alreadyImported: 0,
  skipped: 0,
  skippedByKind: {},
  changed: 0,
  images: 0,
  failedImages: 0,
  subscribers: 0,
  subscribersAlreadyPresent: 0,
  skippedItems: [],
  changedItems: [],
  failedImageItems: [],
};

/** An import as `POST/GET /api/v1/imports` answer it (`data.import`). */
export const importSchema = z.object({
  id: z.string(),
  format: z.enum(IMPORT_FORMATS),
  fileName: z.string(),
  fileBytes: z.number().int(),
  oldUrl: z.string().nullable(),
  status: z.enum(IMPORT_STATUSES),
  /** Source items gone through, of `total` (null until counted): the progress bar. */
  progress: z.object({ processed: z.number().int(), total: z.number().int().nullable() }),
  report: importReportSchema,
  error: z.string().nullable(),
  createdAt: z.iso.datetime(),
  startedAt: z.iso.datetime().nullable(),
  finishedAt: z.iso.datetime().nullable(),
  undoneAt: z.iso.datetime().nullable(),
});
export type ImportView = z.infer<typeof importSchema>;
