import "server-only";
import { randomUUID } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { Prisma } from "~/generated/prisma/client";
import { DomainError } from "~/server/common/domain-error";
import type { Db } from "~/server/db";
import { deleteUnusedImportedImages } from "~/server/images/images";
import { JOB_NAMES } from "~/server/jobs/definition";
import { EMPTY_IMPORT_REPORT, importReportSchema, MAX_IMPORT_BYTES, type ImportView } from "~/shared/imports";
import { detectFormat } from "./detect-format";
import { ImportFileError } from "./source";

/**
 * Imports as the owner starts and follows them (docs/migrating.md, How an import runs): the file
 * is kept in the database (import_chunk) so that whichever worker runs the import_run job reads
 * it, and deleted once the import ends.
 */

export type ImportRecord = Prisma.ImportGetPayload<object>;

/** The uploaded file is kept in chunks of this size: one row never holds more in memory. */
export const IMPORT_CHUNK_BYTES = 4 * 1024 * 1024;
/** The import_run job is tried this many times (a crash of its worker is one): then the import fails. */
export const IMPORT_JOB_ATTEMPTS = 5;
/** Imports the dashboard lists. */
const LISTED_IMPORTS = 20;

/**
 * The job of an import, one per import (its key) while it waits. A job already taken (locked) gets
 * a new one beside it: its worker may have died, leaving it locked for graphile-worker's 4 hours;
 * the job's session lock (./run-import.ts) keeps two runs of the import from overlapping.
 */
export const importJobKey = (importId: string) => `${JOB_NAMES.runImport}:${importId}`;
const QUEUE_IMPORT_SQL = `SELECT graphile_worker.add_job('${JOB_NAMES.runImport}', json_build_object('importId', "id"),
    job_key := '${importJobKey("")}' || "id", job_key_mode := 'preserve_run_at', max_attempts := ${IMPORT_JOB_ATTEMPTS})
  FROM "import" WHERE "status" IN ('queued', 'running') AND ($1::text IS NULL OR "id" = $1::text)`;

/** At a worker's start: imports whose job was lost (queued before the job engine was installed) get one. */
export const QUEUE_UNFINISHED_IMPORTS_SQL = QUEUE_IMPORT_SQL;

/** The old site's address: an absolute http(s) URL (each old permalink's path is taken below it). */
export function parseOldUrl(text: string): string {
  let url: URL | null = null;
  try {
    url = new URL(text.trim());
  } catch {
    // Told below.
  }
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:") || !url.hostname) {
    throw new DomainError("INVALID_PARAMETER", "Invalid parameter: oldUrl", "oldUrl must be the old site's absolute http(s) address, e.g. https://old.example.com", "oldUrl");
  }
  return url.toString();
}

/**
 * Starts an import of `file` for the account: its format told by its content (a file no reader
 * reads, or a hostile archive, is a 400 naming the formats read, and nothing is kept), the file
 * kept in chunks, and the import_run job queued (unless `queue` is false: the CLI runs it itself).
 */
export async function createImport(
  db: Db,
  accountId: string,
  input: { file: Blob; fileName: string; oldUrl?: string | null },
  { queue = true }: { queue?: boolean } = {},
): Promise<ImportRecord> {
  const oldUrl = input.oldUrl ? parseOldUrl(input.oldUrl) : null;
  if (input.file.size > MAX_IMPORT_BYTES) throw importTooLarge();
  if (input.file.size === 0) throw new DomainError("INVALID_PARAMETER", "Invalid parameter: file", "The file is empty", "file");
  const path = join(tmpdir(), `import-${randomUUID()}`);
  try {
    // On disk first: a zip's directory is at its end, and read there by the format's detection.
    await pipeline(Readable.fromWeb(input.file.stream() as never), createWriteStream(path));
    const format = await detectFormat(path).catch((error: unknown) => {
      if (error instanceof ImportFileError) throw new DomainError("INVALID_PARAMETER", "Invalid parameter: file", error.message, "file");
      throw error;
    });
    const row = await db.import.create({
      data: { userId: accountId, format, fileName: importFileName(input.fileName), fileBytes: input.file.size, oldUrl, report: EMPTY_IMPORT_REPORT },
    });
    try {
      await storeChunks(db, row.id, path);
      if (queue) await queueImport(db, row.id);
    } catch (error) {
      await db.import.delete({ where: { id: row.id } }).catch(() => undefined);
      throw error;
    }
    return row;
  } finally {
    await rm(path, { force: true });
  }
}

/** The file's name as shown: no path, no control characters, at most 200 characters. */
function importFileName(name: string): string {
  const base = (name.split(/[\\/]/).pop() ?? "").replace(/[\p{Cc}\p{Cf}]/gu, "").replace(/\s+/g, " ").trim();
  return Array.from(base).slice(0, 200).join("") || "export";
}

export function importTooLarge(): DomainError {
  return new DomainError("PAYLOAD_TOO_LARGE", "The file is too large", `An export may be at most ${MAX_IMPORT_BYTES / 1024 / 1024} MB`, "file");
}

async function storeChunks(db: Db, importId: string, path: string): Promise<void> {
  let seq = 0;
  for await (const chunk of createReadStream(path, { highWaterMark: IMPORT_CHUNK_BYTES })) {
    await db.importChunk.create({ data: { importId, seq: seq++, data: new Uint8Array(chunk as Buffer) } });
  }
}

/** Queues the import's job, when the job engine is installed (else the worker's start queues it: QUEUE_UNFINISHED_IMPORTS_SQL). */
async function queueImport(db: Db, importId: string): Promise<void> {
  const [engine] = await db.$queryRaw<{ installed: boolean }[]>`SELECT "job_engine_installed"() AS "installed"`;
  if (engine?.installed) await db.$queryRawUnsafe(QUEUE_IMPORT_SQL, importId);
}

/** The account's import; another account's is not found, as an unknown one is. */
export async function findImport(db: Db, accountId: string, importId: string): Promise<ImportRecord> {
  const row = await db.import.findFirst({ where: { id: importId, userId: accountId } });
  if (!row) throw new DomainError("RESOURCE_NOT_FOUND", "Import not found", `No import with id ${importId}`);
  return row;
}

/** The account's latest imports, newest first. */
export function listImports(db: Db, accountId: string): Promise<ImportRecord[]> {
  return db.import.findMany({ where: { userId: accountId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: LISTED_IMPORTS });
}

/**
 * Undoes an import: the blogs it created that still carry its id, its images no blog uses any
 * more, its subscribers and its permalinks are deleted. A blog the owner has since edited is
 * deleted too: it is still the import's. An import still running cannot be undone (409).
 */
export async function undoImport(db: Db, accountId: string, importId: string): Promise<ImportRecord> {
  const row = await findImport(db, accountId, importId);
  if (row.status === "queued" || row.status === "running") {
    throw new DomainError("RESOURCE_CONFLICT", "The import is still running", "Wait until it is done (or failed) to undo it");
  }
  if (row.undoneAt) return row;
  return db.$transaction(
    async (tx) => {
      await tx.importedPermalink.deleteMany({ where: { importId, userId: accountId } });
      await tx.blog.deleteMany({ where: { importId, userId: accountId } });
      await tx.subscriber.deleteMany({ where: { importId, userId: accountId } });
      return tx.import.update({ where: { id: importId }, data: { undoneAt: new Date() } });
    },
    { timeout: 60_000 },
  ).then(async (undone) => {
    await deleteUnusedImportedImages(db, accountId, importId);
    return undone;
  });
}

/** An import as the API shows it. */
export function importView(row: ImportRecord): ImportView {
  const report = importReportSchema.safeParse(row.report);
  return {
    id: row.id,
    format: row.format,
    fileName: row.fileName,
    fileBytes: row.fileBytes,
    oldUrl: row.oldUrl,
    status: row.status,
    progress: { processed: row.processed, total: row.total },
    report: report.success ? report.data : EMPTY_IMPORT_REPORT,
    error: row.error,
    createdAt: row.createdAt.toISOString(),
    startedAt: row.startedAt?.toISOString() ?? null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
    undoneAt: row.undoneAt?.toISOString() ?? null,
  };
}
