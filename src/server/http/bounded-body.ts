import "server-only";
/**
 * Request bodies read no further than a limit, for every door: /api/v1's JSON and images (Node's
 * request), the dashboard's tRPC and sign-in (web requests). Each door sets its own limit and its
 * own refusal.
 */
import type { IncomingMessage } from "node:http";
import { TRPCError } from "@trpc/server";

/**
 * A Node request's body; null as soon as it passes `limit` bytes (the rest is not kept). A client that leaves
 * before sending all of it gets a malformed-body error nobody will read.
 */
export function readCapped(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      stop();
      resolve(null);
    };
    const onEnd = () => {
      stop();
      resolve(Buffer.concat(chunks));
    };
    const onFailure = (cause?: Error) => {
      stop();
      reject(new TRPCError({ code: "PARSE_ERROR", message: "The request body was not received whole", cause }));
    };
    const stop = () => req.off("data", onData).off("end", onEnd).off("error", onFailure).off("close", onFailure);
    req.on("data", onData).on("end", onEnd).on("error", onFailure).on("close", onFailure);
  });
}

/** A web request's body, read no further than `limit` bytes (a larger declared length is not read at all). */
export async function readCappedWebBody(request: Request, limit: number): Promise<Buffer | undefined | "too large"> {
  if (!request.body) return undefined;
  if (Number(request.headers.get("content-length")) > limit) return "too large";
  const chunks: Uint8Array[] = [];
  let received = 0;
  for await (const chunk of request.body as unknown as AsyncIterable<Uint8Array>) {
    received += chunk.byteLength;
    if (received > limit) return "too large";
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** A web request (Next's route handlers) whose body fails with `tooLarge()` once more than `maxBodyBytes` have arrived. */
export function boundedRequest(req: Request, maxBodyBytes: number, tooLarge: () => Error): Request {
  if (!req.body) return req;
  let received = 0;
  const bounded = req.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        received += chunk.byteLength;
        if (received > maxBodyBytes) controller.error(tooLarge());
        else controller.enqueue(chunk);
      },
    }),
    // The rest is left unread rather than cancelled, so the client still gets the 413.
    { preventCancel: true },
  );
  return new Request(req, { body: bounded, duplex: "half" } as RequestInit);
}

