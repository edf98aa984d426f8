import { ApiError } from "../errors";

export const MAX_BODY_BYTES = 1024 * 1024;

const JSON_CONTENT_TYPE = /^application\/json\s*(;|$)/i;

export function carriesBody(method: string): boolean {
  return method === "POST" || method === "PUT" || method === "PATCH";
}

/**
 * A copy of `req` whose JSON body has been read, at most 1 MiB of it: a request that declares or
 * sends more is refused without reading the rest, and a body that is not JSON is refused unread.
 */
export async function withCheckedBody(req: Request): Promise<Request> {
  if (!JSON_CONTENT_TYPE.test(req.headers.get("content-type") ?? "")) {
    throw new ApiError("UNSUPPORTED_MEDIA_TYPE", "Unsupported media type", "The request body must be JSON, sent with Content-Type: application/json");
  }
  if (Number(req.headers.get("content-length")) > MAX_BODY_BYTES || !req.body) {
    if (req.body) throw tooLarge();
    return req;
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = req.body.getReader();
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    size += chunk.value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(chunk.value);
  }
  const headers = new Headers(req.headers);
  // trpc-to-openapi only recognises the lowercase form.
  headers.set("content-type", "application/json");
  return new Request(req.url, { method: req.method, headers, body: Buffer.concat(chunks) });
}

function tooLarge(): ApiError {
  return new ApiError("PAYLOAD_TOO_LARGE", "Payload too large", `The request body must be at most ${MAX_BODY_BYTES} bytes (1 MiB)`);
}
