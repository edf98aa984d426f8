import "server-only";
import type { Prisma } from "~/generated/prisma/client";
import { canonicalJsonHash } from "~/server/api/canonical-json";
import { runOnce, sweepExpiredIdempotencyRecords, type StoredResponse } from "~/server/api/idempotency-store";
import { ApiError, errorEnvelope, toApiError, type ErrorEnvelope } from "./errors";
import type { Context } from "./trpc";

export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

/** Where a request's work runs: the request's database client, or the transaction of its Idempotency-Key. */
export type RequestDb = Context["db"] | Prisma.TransactionClient;

/**
 * Runs a POST at most once per `Idempotency-Key` (README, The API): a retry with the same key and
 * the same body within 24 hours gets the first response (status and body) with
 * `Idempotent-Replayed: true`; the same key with another body is a conflict. With the header,
 * `run` gets the transaction that also claims the key and stores the response, and must do all
 * its database work on it; without, it gets `ctx.db` and simply runs. A 4xx is stored like a
 * success; a 5xx stores nothing, so a retry runs afresh.
 */
export async function runIdempotently<T>(
  ctx: Context,
  accountId: string,
  input: unknown,
  successStatus: number,
  run: (db: RequestDb) => Promise<T>,
): Promise<T> {
  const key = ctx.headers.get("idempotency-key")?.trim();
  if (!key) return run(ctx.db);
  if (key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    throw new ApiError("INVALID_PARAMETER", "Invalid header: Idempotency-Key", `Idempotency-Key must be at most ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`);
  }

  ctx.afterResponse(() => sweepExpiredIdempotencyRecords(ctx.sql));
  const outcome = await runOnce(ctx.db, { accountId, key, requestHash: canonicalJsonHash(input) }, async (tx) => {
    try {
      return { status: successStatus, body: await run(tx) };
    } catch (error) {
      const apiError = toApiError(error);
      // As thrown, so the store can tell a lost connection (and run once more) from other failures.
      if (apiError.httpStatus() >= 500) throw error;
      return { status: apiError.httpStatus(), body: errorEnvelope(apiError) };
    }
  });
  switch (outcome.kind) {
    case "different-request":
      throw new ApiError("RESOURCE_CONFLICT", "Resource conflict", `Idempotency-Key ${key} was already used with a different request body`);
    case "still-running":
      throw new ApiError("RESOURCE_CONFLICT", "Resource conflict", `A request with Idempotency-Key ${key} is still being processed; retry later`);
    case "replay":
      ctx.resHeaders.set("Idempotent-Replayed", "true");
      return answer<T>(outcome.response);
    case "ran":
      return answer<T>(outcome.response);
  }
}

/** The response as the procedure gives it: its body, or the error it was. */
function answer<T>(response: StoredResponse): T {
  if (response.status < 400) return response.body as T;
  const { error } = response.body as ErrorEnvelope;
  throw new ApiError(error.code, error.message, error.details);
}

