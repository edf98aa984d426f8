import "server-only";
export interface ApiRequestRecord {
  accountId: string;
  keyId: string;
  method: string;
  /** Route template, e.g. /blogs/{blogId}: one row per endpoint, whatever the ids. */
  path: string;
  /** The query string as the log keeps it (loggedQuery), null without one. */
  query: string | null;
  status: number;
  /** The error envelope's code of a 4xx or 5xx answer. */
  errorCode: string | null;
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

/** The longest query string the request log keeps; longer ones are cut, ending with "…". */
export const LOGGED_QUERY_MAX_LENGTH = 500;
const REDACTED = "REDACTED";
/** An API key anywhere in the query (src/server/keys/api-key.ts's shape): never stored. */
const API_KEY_SHAPE = /bm_[a-z0-9]{64}/gi;

/**
 * The query string of a request as its key's activity shows it (without the "?"): `api_key`'s
 * value, the key itself (README, The API), and anything shaped like a key replaced by REDACTED,
 * bounded to LOGGED_QUERY_MAX_LENGTH characters; null for none.
 */
export function loggedQuery(search: string): string | null {
  const query = search.startsWith("?") ? search.slice(1) : search;
  if (!query) return null;
  const redacted = query
    .split("&")
    .map((pair) => {
      const equals = pair.indexOf("=");
      const name = equals === -1 ? pair : pair.slice(0, equals);
      return equals !== -1 && decodedName(name).toLowerCase() === "api_key" ? `${name}=${REDACTED}` : pair;
    })
    .join("&")
    .replace(API_KEY_SHAPE, REDACTED);
  return redacted.length > LOGGED_QUERY_MAX_LENGTH ? `${redacted.slice(0, LOGGED_QUERY_MAX_LENGTH - 1)}…` : redacted;
}

/** A parameter's name as URLSearchParams reads it ("api%5Fkey" and "api_key" are one). */
function decodedName(name: string): string {
  try {
    return decodeURIComponent(name.replaceAll("+", " "));
  } catch {
    return name;
  }
}
