import { createHash } from "node:crypto";
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  releaseIdempotencyKey,
  type StoredResponse,
} from "~/server/idempotency-store";
import { ApiError, errorEnvelope, toApiError, type ErrorEnvelope } from "./errors";
import type { Context } from "./trpc";

const MAX_KEY_LENGTH = 255;

/**
 * Runs a POST at most once per `Idempotency-Key` (decisions.md 4): a retry with the same key and
 * the same body within 24 hours gets the first response (status and body) with
 * `Idempotent-Replayed: true`; the same key with another body is a conflict. Without the header
 * the request simply runs.
 */
export async function runIdempotently<T>(
  ctx: Context,
  accountId: string,
  input: unknown,
  successStatus: number,
  run: () => Promise<T>,
): Promise<T> {
  const key = ctx.headers.get("idempotency-key")?.trim();
  if (!key) return run();
  if (key.length > MAX_KEY_LENGTH) {
    throw new ApiError("INVALID_PARAMETER", "Invalid header: Idempotency-Key", `Idempotency-Key must be at most ${MAX_KEY_LENGTH} characters`);
  }

  const claim = await claimIdempotencyKey(ctx.db, accountId, key, hashOf(input));
  switch (claim.kind) {
    case "different-request":
      throw new ApiError("RESOURCE_CONFLICT", "Resource conflict", `Idempotency-Key ${key} was already used with a different request body`);
    case "still-running":
      throw new ApiError("RESOURCE_CONFLICT", "Resource conflict", `A request with Idempotency-Key ${key} is still being processed; retry later`);
    case "replay":
      ctx.resHeaders.set("Idempotent-Replayed", "true");
      return replay<T>(claim.response);
  }

  try {
    const result = await run();
    await completeIdempotencyKey(ctx.db, accountId, key, { status: successStatus, body: result });
    return result;
  } catch (error) {
    const apiError = toApiError(error);
    if (apiError.httpStatus() >= 500) await releaseIdempotencyKey(ctx.db, accountId, key);
    else await completeIdempotencyKey(ctx.db, accountId, key, { status: apiError.httpStatus(), body: errorEnvelope(apiError) });
    throw apiError;
  }
}

function replay<T>(response: StoredResponse): T {
  if (response.status < 400) return response.body as T;
  const { error } = response.body as ErrorEnvelope;
  throw new ApiError(error.code, error.message, error.details);
}

/** The same JSON, whatever its key order, hashes the same. */
function hashOf(value: unknown): string {
  return createHash("sha256").update(canonicalJson(value)).digest("hex");
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
