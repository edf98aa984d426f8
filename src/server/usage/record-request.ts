import "server-only";
export interface ApiRequestRecord {
  accountId: string;
  keyId: string;
  method: string;
  /** Route template, e.g. /blogs/{blogId}: one row per endpoint, whatever the ids. */
  path: string;
  status: number;
  at: Date;
  /** From the request's arrival to its answer. */
  latencyMs: number;
  /** The X-Request-Id it was answered with. */
  requestId: string;
}

/**
 * Which outcome counter a status adds to; a 429 counts as rate limited, not as a client error, and
 * a 304 (a conditional GET, README, The API) as not modified.
 */
export function outcomeOf(status: number): "succeeded" | "notModified" | "clientErrors" | "serverErrors" | "rateLimited" {
  if (status === 304) return "notModified";
  if (status === 429) return "rateLimited";
  if (status >= 500) return "serverErrors";
  if (status >= 400) return "clientErrors";
  return "succeeded";
}
