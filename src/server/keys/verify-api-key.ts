import "server-only";
import { getSqlPool } from "~/server/db";
import { consumeAccountRate, countUnauthenticated, peekAccountRate, type PolicyRateLimitState } from "~/server/ratelimit/account-rate";
import { authenticateApiKey, type AuthenticatedKey } from "./authenticate";
import type { Permission } from "~/shared/permissions";
import { presentedApiKey } from "./presented-key";

/** What the one check of a request's key found (README, The API: key, then permission, then rate limit). */
export type KeyStatus = "valid" | "missing" | "unknown" | "expired" | "deactivated" | "rolled" | "insufficient_permission" | "rate_limited";

export interface KeyVerification {
  status: KeyStatus;
  /** The key, once it is known to exist, be active and not expired. */
  key?: AuthenticatedKey;
  /** The state of the bucket the request was counted in (or, when it must not be, looked at). */
  rateLimit?: PolicyRateLimitState;
}

/** The parts of a request the check reads: its headers (the key, the client IP) and its URL (`?api_key=`). */
export interface KeyedRequest {
  headers: Headers;
  url: URL;
  /** The client's address, which an unauthenticated request is counted against; null when unknown. */
  clientIp: string | null;
}

/**
 * The one check of a request's API key, run once, before its body is read. `operation` is what
 * the matched route needs; null when no operation matched (404, 405) or the route consumes no budget
 * (the OpenAPI document, /rate_limit): then the key is only identified, to report its account's
 * state, and nothing is counted. An operation's request without a valid key is counted against its client IP (to
 * report, never to refuse); with a key lacking the permission, the account's budget is looked at;
 * otherwise one unit of it is consumed. A status, never an exception: the caller maps it
 * (src/server/api/rest/key-refusals.ts) and records the outcome. With `consume: false` (a
 * conditional GET, whose 304 costs nothing) a valid key's budget is only looked at, and refused if
 * spent; the caller consumes it if the answer turns out not to be a 304.
 */
export async function verifyApiKey(
  request: KeyedRequest,
  operation: { permission: Permission } | null,
  { consume = true }: { consume?: boolean } = {},
): Promise<KeyVerification> {
  const presented = presentedApiKey({
    xApiKey: request.headers.get("x-api-key"),
    authorization: request.headers.get("authorization"),
    queryApiKey: request.url.searchParams.get("api_key"),
  });
  const unauthenticated = async (status: KeyStatus): Promise<KeyVerification> =>
    operation ? { status, rateLimit: await countUnauthenticated(request.clientIp) } : { status };
  if (!presented) return unauthenticated("missing");
  const lookup = await authenticateApiKey(getSqlPool(), presented);
  if ("rejected" in lookup) return unauthenticated(lookup.rejected);
  const key = lookup.key;
  if (!operation) return { status: "valid", key, rateLimit: await peekAccountRate(key) };
  if (!key.permissions.includes(operation.permission)) {
    return { status: "insufficient_permission", key, rateLimit: await peekAccountRate(key) };
  }
  if (!consume) {
    // Its unit waits for the answer, but a spent budget is refused now, before any of the operation's work.
    const rateLimit = await peekAccountRate(key);
    return { status: rateLimit.success ? "valid" : "rate_limited", key, rateLimit };
  }
  return consumeKeyBudget(key);
}

/** One unit of a valid key's account budget: still valid, or rate_limited once the budget is spent. */
export async function consumeKeyBudget(key: AuthenticatedKey): Promise<KeyVerification> {
  const rateLimit = await consumeAccountRate(key);
  return { status: rateLimit.success ? "valid" : "rate_limited", key, rateLimit };
}
