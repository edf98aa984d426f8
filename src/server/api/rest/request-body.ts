import "server-only";
import type { IncomingMessage } from "node:http";
import { TRPCError } from "@trpc/server";
import { readCapped } from "~/server/http/bounded-body";
import { ApiError } from "../errors";

/** The largest JSON body /api/v1 reads (README, The API). */
export const MAX_API_BODY_BYTES = 1024 * 1024;

const JSON_CONTENT_TYPE = /^application\/json\s*(;|$)/i;

export function carriesBody(method: string): boolean {
  return method === "POST" || method === "PUT" || method === "PATCH";
}

/**
 * The request's JSON body, parsed, at most 1 MiB of it: a request that declares or sends more is
 * refused without keeping the rest, and a body not declared as JSON is refused unread. A request
 * without any body (no Content-Type, nothing sent) has none: undefined, for operations that need
 * nothing but their path (a restore); one that needs fields then names the missing one.
 */
export async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const { "content-type": contentType, "content-length": contentLength, "transfer-encoding": transferEncoding } = req.headers;
  if (contentType === undefined && transferEncoding === undefined && (contentLength === undefined || contentLength === "0")) return undefined;
  if (!JSON_CONTENT_TYPE.test(req.headers["content-type"] ?? "")) {
    throw new ApiError("UNSUPPORTED_MEDIA_TYPE", "Unsupported media type", "The request body must be JSON, sent with Content-Type: application/json");
  }
  if (Number(req.headers["content-length"]) > MAX_API_BODY_BYTES) throw tooLarge();
  const bytes = await readCapped(req, MAX_API_BODY_BYTES);
  if (bytes === null) throw tooLarge();
  try {
    // An empty body is malformed JSON too.
    return JSON.parse(bytes.toString("utf8"));
  } catch (cause) {
    throw new TRPCError({ code: "PARSE_ERROR", message: "Failed to parse request body", cause });
  }
}

function tooLarge(): ApiError {
  return new ApiError("PAYLOAD_TOO_LARGE", "Payload too large", `The request body must be at most ${MAX_API_BODY_BYTES} bytes (1 MiB)`);
}
