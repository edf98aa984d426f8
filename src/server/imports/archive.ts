import "server-only";
import { posix } from "node:path";
import { Readable } from "node:stream";
import yauzl from "yauzl";
import {
  MAX_ARCHIVE_ENTRIES,
  MAX_ARCHIVE_ENTRY_BYTES,
  MAX_ARCHIVE_UNCOMPRESSED_BYTES,
  MAX_COMPRESSION_RATIO,
} from "~/shared/imports";
import { ImportFileError } from "./source";

/**
 * A zip archive of an export, read under the bounds of docs/migrating.md (Hostile files): its
 * directory is read and checked whole before any entry is inflated, so a zip bomb (entries that
 * claim, or inflate to, more than the bounds), too many entries, or a name escaping the archive
 * ("../", an absolute path) refuses the file at once. yauzl checks each entry's inflated size
 * against what the directory claims as it streams, so a lying header stops there.
 */
export interface Archive {
  /** Entry names (files only, "/" separated, never starting with "/" nor holding ".."), in the archive's order. */
  names: string[];
  /** An entry's bytes; null when there is no such entry. */
  read(name: string): Promise<Buffer | null>;
  /** An entry as a stream, for the big ones (a WXR or JSON export inside the zip). */
  stream(name: string): Promise<Readable>;
  close(): void;
}

/** Whether these first bytes are a zip's. */
export const isZip = (head: Buffer) => head.length >= 4 && head.readUInt32LE(0) === 0x04034b50;

export async function openArchive(path: string): Promise<Archive> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(path, { lazyEntries: true, autoClose: false, validateEntrySizes: true, strictFileNames: false }, (error, opened) =>
      error ? reject(new ImportFileError(`not a readable zip archive (${error.message})`)) : resolve(opened),
    ),
  );
  try {
    if (zip.entryCount > MAX_ARCHIVE_ENTRIES) throw new ImportFileError(`the archive has ${zip.entryCount} entries; at most ${MAX_ARCHIVE_ENTRIES} are read`);
    const entries = await readDirectory(zip);
    return {
      names: [...entries.keys()],
      async read(name) {
        const entry = entries.get(name);
        if (!entry) return null;
        const chunks: Buffer[] = [];
        for await (const chunk of await openEntry(zip, entry)) chunks.push(chunk as Buffer);
        return Buffer.concat(chunks);
      },
      async stream(name) {
        const entry = entries.get(name);
        if (!entry) throw new ImportFileError(`the archive has no ${name}`);
        return openEntry(zip, entry);
      },
      close: () => zip.close(),
    };
  } catch (error) {
    zip.close();
    throw error;
  }
}

function readDirectory(zip: yauzl.ZipFile): Promise<Map<string, yauzl.Entry>> {
  return new Promise((resolve, reject) => {
    const entries = new Map<string, yauzl.Entry>();
    let total = 0;
    const refuse = (message: string) => reject(new ImportFileError(message));
    zip.on("entry", (entry: yauzl.Entry) => {
      const name = entry.fileName;
      if (name.endsWith("/")) return zip.readEntry();
      const normalized = posix.normalize(name);
      if (normalized !== name || posix.isAbsolute(name) || name.split("/").includes("..")) return refuse(`the entry ${JSON.stringify(name)} would escape the archive`);
      if (entry.isEncrypted()) return refuse(`the entry ${JSON.stringify(name)} is encrypted`);
      if (entry.uncompressedSize > MAX_ARCHIVE_ENTRY_BYTES) return refuse(`the entry ${JSON.stringify(name)} inflates to more than ${MAX_ARCHIVE_ENTRY_BYTES / 1024 / 1024} MB`);
      if (entry.compressedSize > 0 && entry.uncompressedSize / entry.compressedSize > MAX_COMPRESSION_RATIO) return refuse(`the entry ${JSON.stringify(name)} is compressed too much to be a real file (a zip bomb?)`);
      total += entry.uncompressedSize;
      if (total > MAX_ARCHIVE_UNCOMPRESSED_BYTES) return refuse(`the archive inflates to more than ${MAX_ARCHIVE_UNCOMPRESSED_BYTES / 1024 / 1024} MB`);
      entries.set(name, entry);
      zip.readEntry();
    });
    zip.on("end", () => resolve(entries));
    // yauzl's own refusals (an invalid relative path, a broken directory) are the file's fault.
    zip.on("error", (error: Error) => refuse(`the archive is malformed (${error.message})`));
    zip.readEntry();
  });
}

/**
 * An entry's bytes as they inflate. A failure midway (an entry inflating past the size the
 * directory claims, corrupt data) is the file's fault: told as an ImportFileError, so the import
 * fails at once with it rather than being retried as a crash would be.
 */
async function openEntry(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Readable> {
  const cannotRead = (error: unknown) => new ImportFileError(`the entry ${JSON.stringify(entry.fileName)} cannot be read (${error instanceof Error ? error.message : String(error)})`);
  const inflating = await new Promise<Readable>((resolve, reject) => zip.openReadStream(entry, (error, stream) => (error ? reject(cannotRead(error)) : resolve(stream))));
  return Readable.from(
    (async function* () {
      try {
        yield* inflating;
      } catch (error) {
        throw cannotRead(error);
      }
    })(),
    { objectMode: false },
  );
}
