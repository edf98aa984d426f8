import "server-only";
import { randomUUID } from "node:crypto";
import { createWriteStream, openAsBlob } from "node:fs";
import { rm } from "node:fs/promises";
import type { IncomingHttpHeaders } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable } from "node:stream";
import busboy from "busboy";
import { TRPCError } from "@trpc/server";
import { importTooLarge } from "~/server/imports/imports";
import { MAX_IMPORT_BYTES } from "~/shared/imports";
import { ApiError } from "./errors";

/** Beside the file, a multipart body carries its boundaries, part headers and the oldUrl field. */
export const MAX_IMPORT_REQUEST_BYTES = MAX_IMPORT_BYTES + 64 * 1024;

/** An export's upload, spooled to disk: `file` reads from there, never from memory; `remove` deletes it once the procedure is done. */
export interface SpooledImport {
  file: File;
  oldUrl: string | undefined;
  remove(): Promise<void>;
}

/**
 * The body of POST /api/v1/imports and of the dashboard's imports.create (docs/migrating.md, How an
 * import runs): multipart/form-data whose `file` part is streamed to a temporary file as it
 * arrives (never held whole), refused with a 413 once it passes MAX_IMPORT_BYTES (the rest is
 * read and dropped, so the client gets the answer); an `oldUrl` field beside it.
 */
export async function spoolImportUpload(headers: IncomingHttpHeaders, body: Readable): Promise<SpooledImport> {
  if (Number(headers["content-length"]) > MAX_IMPORT_REQUEST_BYTES) throw importTooLarge();
  if (!/^multipart\/form-data\s*;/i.test(headers["content-type"] ?? "")) {
    throw new ApiError("UNSUPPORTED_MEDIA_TYPE", "Unsupported media type", "Send the export as multipart/form-data with a part named file");
  }
  const path = join(tmpdir(), `upload-${randomUUID()}`);
  const remove = () => rm(path, { force: true });
  try {
    const { fileName, oldUrl } = await writeFilePart(headers, body, path);
    const blob = await openAsBlob(path);
    return { file: new File([blob], fileName), oldUrl, remove };
  } catch (error) {
    await remove();
    throw error;
  }
}

function writeFilePart(headers: IncomingHttpHeaders, body: Readable, path: string): Promise<{ fileName: string; oldUrl: string | undefined }> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers, defParamCharset: "utf8", limits: { fileSize: MAX_IMPORT_BYTES, files: 1, fields: 5, parts: 6, fieldSize: 4096 } });
    } catch (cause) {
      return reject(malformed("The multipart body has no boundary", cause));
    }
    let written: Promise<void> | undefined;
    let tooLarge = false;
    let fileName = "";
    let oldUrl: string | undefined;
    parser.on("field", (name, value) => {
      if (name === "oldUrl") oldUrl = value;
    });
    parser.on("file", (name, stream, info) => {
      if (name !== "file" || written) return void stream.resume();
      fileName = info.filename ?? "";
      const out = createWriteStream(path);
      written = new Promise((done, failed) => {
        out.on("finish", done).on("error", failed);
      });
      stream.on("limit", () => {
        tooLarge = true;
        stream.unpipe(out);
        out.end();
        stream.resume();
      });
      stream.pipe(out);
    });
    parser.on("close", () => {
      if (!written) return reject(new ApiError("MISSING_REQUIRED_FIELD", "Missing required field: file", "The multipart body must have a part named file holding the export", { field: "file" }));
      written.then(() => (tooLarge ? reject(importTooLarge()) : resolve({ fileName, oldUrl })), reject);
    });
    parser.on("error", (cause) => reject(malformed("The multipart body is malformed", cause)));
    body.on("error", (cause) => reject(malformed("The request body was not received whole", cause)));
    body.on("close", () => {
      if ("complete" in body && body.complete === false) reject(malformed("The request body was not received whole"));
    });
    body.pipe(parser);
  });
}

function malformed(message: string, cause?: unknown): TRPCError {
  return new TRPCError({ code: "PARSE_ERROR", message, cause });
}
