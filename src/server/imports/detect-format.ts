import "server-only";
import { open } from "node:fs/promises";
import { posix } from "node:path";
import type { ImportFormat } from "~/shared/imports";
import { isZip, openArchive, type Archive } from "./archive";
import { ImportFileError } from "./source";

/** What the refusal of a file no reader reads says (docs/migrating.md, How an import runs). */
export const READ_FORMATS =
  "a WordPress export (WXR .xml), a Ghost export (.json, or its .zip with images), a Substack export (.zip with posts.csv) or a .zip of Markdown files";

const MARKDOWN_FILE = /\.(md|markdown)$/i;
/** The first bytes of a JSON entry looked at to tell a Ghost export: its `db` array or `data.posts` come first. */
const JSON_HEAD_BYTES = 4096;

/**
 * The format of the export at `path`, told by its content, never its name (docs/migrating.md): a
 * zip by what it holds (posts.csv → Substack; a Ghost JSON, or any .json beside content/images →
 * Ghost; a WXR .xml → WordPress; .md files → Markdown); a bare file by its first characters
 * ("<?xml" or "<rss" → WordPress, "{" → Ghost). Anything else is refused with the formats read.
 * A zip is opened under the archive's bounds (./archive.ts), so a hostile one is refused here.
 */
export async function detectFormat(path: string): Promise<ImportFormat> {
  const head = await readHead(path, 64);
  if (isZip(head)) {
    const archive = await openArchive(path);
    try {
      const format = await archiveFormat(archive);
      if (format) return format;
    } finally {
      archive.close();
    }
    throw new ImportFileError(`This zip holds no export we read: send ${READ_FORMATS}.`);
  }
  const text = head.toString("utf8").replace(/^\uFEFF/, "").trimStart();
  if (text.startsWith("<?xml") || text.startsWith("<rss")) return "wordpress";
  if (text.startsWith("{")) return "ghost";
  throw new ImportFileError(`This file is not an export we read: send ${READ_FORMATS}.`);
}

async function archiveFormat(archive: Archive): Promise<ImportFormat | null> {
  const { names } = archive;
  const base = (name: string) => posix.basename(name).toLowerCase();
  // macOS's zip adds __MACOSX/ copies of every file: never an export's own.
  const own = names.filter((name) => !name.startsWith("__MACOSX/"));
  if (own.some((name) => base(name) === "posts.csv")) return "substack";
  const jsons = own.filter((name) => base(name).endsWith(".json"));
  if (jsons.length > 0 && own.some((name) => /(^|\/)content\/images\//.test(name))) return "ghost";
  for (const name of jsons) if (isGhostJson(await entryHead(archive, name))) return "ghost";
  for (const name of own.filter((entry) => base(entry).endsWith(".xml"))) if (/<rss[\s>]/.test(await entryHead(archive, name))) return "wordpress";
  if (own.some((name) => MARKDOWN_FILE.test(name))) return "markdown";
  return null;
}

/** Ghost's export: `{"db": [{"meta": …, "data": {"posts": …}}]}`, or the bare `{"meta", "data"}` of older versions. */
const isGhostJson = (head: string) => /^\s*\{\s*"(db|meta|data)"\s*:/.test(head.replace(/^\uFEFF/, ""));

async function entryHead(archive: Archive, name: string): Promise<string> {
  const stream = await archive.stream(name);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    chunks.push(chunk as Buffer);
    size += (chunk as Buffer).length;
    if (size >= JSON_HEAD_BYTES) break;
  }
  stream.destroy();
  return Buffer.concat(chunks).subarray(0, JSON_HEAD_BYTES).toString("utf8");
}

async function readHead(path: string, bytes: number): Promise<Buffer> {
  const file = await open(path, "r");
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await file.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
}
