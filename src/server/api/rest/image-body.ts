import "server-only";
import type { IncomingMessage } from "node:http";
import busboy from "busboy";
import { TRPCError } from "@trpc/server";
import { tooLarge } from "~/server/images/process-image";
import { MAX_IMAGE_BYTES, MAX_IMAGE_REQUEST_BYTES } from "~/shared/images";
import { ApiError } from "../errors";
import { readCapped } from "~/server/http/bounded-body";

/**
 * An image upload's body (POST /api/v1/images, docs/images.md), as the procedure takes it: the file
 * sent as the whole body, whatever its declared type (the content decides, later), or the `file`
 * part of a multipart/form-data body. Past MAX_IMAGE_BYTES, a 413 without keeping the rest.
 */
export async function readImageBody(req: IncomingMessage): Promise<{ file: Blob }> {
  if (Number(req.headers["content-length"]) > MAX_IMAGE_REQUEST_BYTES) throw tooLarge();
  const multipart = /^multipart\/form-data\s*;/i.test(req.headers["content-type"] ?? "");
  const bytes = multipart ? await readFilePart(req) : await readCapped(req, MAX_IMAGE_BYTES);
  if (bytes === null) throw tooLarge();
  return { file: new Blob([new Uint8Array(bytes)]) };
}

/** The `file` part's bytes; null when it passes MAX_IMAGE_BYTES. */
function readFilePart(req: IncomingMessage): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, limits: { fileSize: MAX_IMAGE_BYTES, files: 1, fields: 20, parts: 21, fieldSize: 1024 } });
    } catch (cause) {
      return reject(malformed("The multipart body has no boundary", cause));
    }
    let file: Buffer | null | undefined;
    parser.on("file", (name, stream) => {
      if (name !== "file") return void stream.resume();
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("limit", () => {
        file = null;
        stream.resume();
      });
      stream.on("close", () => {
        if (file !== null) file = Buffer.concat(chunks);
      });
    });
    parser.on("close", () => {
      if (file === undefined) reject(new ApiError("MISSING_REQUIRED_FIELD", "Missing required field: file", "The multipart body must have a part named file holding the image", { field: "file" }));
      else resolve(file);
    });
    parser.on("error", (cause) => reject(malformed("The multipart body is malformed", cause)));
    req.on("close", () => {
      if (!req.complete) reject(malformed("The request body was not received whole"));
    });
    req.pipe(parser);
  });
}

function malformed(message: string, cause?: unknown): TRPCError {
  return new TRPCError({ code: "PARSE_ERROR", message, cause });
}
