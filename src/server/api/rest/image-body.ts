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
 * part of a multipart/form-data body, named as the part names it. Past MAX_IMAGE_BYTES, a 413
 * without keeping the rest.
 */
export async function readImageBody(req: IncomingMessage): Promise<{ file: Blob }> {
  if (Number(req.headers["content-length"]) > MAX_IMAGE_REQUEST_BYTES) throw tooLarge();
  const multipart = /^multipart\/form-data\s*;/i.test(req.headers["content-type"] ?? "");
  const part = multipart ? await readFilePart(req) : { bytes: await readCapped(req, MAX_IMAGE_BYTES), name: "" };
  if (part.bytes === null) throw tooLarge();
  return { file: new File([new Uint8Array(part.bytes)], part.name) };
}

/** The `file` part's bytes (null when they pass MAX_IMAGE_BYTES) and file name. */
function readFilePart(req: IncomingMessage): Promise<{ bytes: Buffer | null; name: string }> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      // File names as browsers and fetch send them: UTF-8 (busboy's default reads them as Latin-1).
      parser = busboy({ headers: req.headers, defParamCharset: "utf8", limits: { fileSize: MAX_IMAGE_BYTES, files: 1, fields: 20, parts: 21, fieldSize: 1024 } });
    } catch (cause) {
      return reject(malformed("The multipart body has no boundary", cause));
    }
    let file: Buffer | null | undefined;
    let fileName = "";
    parser.on("file", (name, stream, info) => {
      if (name !== "file") return void stream.resume();
      fileName = info.filename ?? "";
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
      else resolve({ bytes: file, name: fileName });
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
