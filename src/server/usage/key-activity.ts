import "server-only";
import type { Db } from "~/server/db";
import { DomainError } from "~/server/common/domain-error";
import { getAnalytics, resolveAnalyticsRange, type Analytics } from "./analytics";

/** How many of a key's latest requests its page shows (from the account's bounded request log). */
export const KEY_RECENT_REQUESTS = 100;

export interface LoggedRequest {
  at: string;
  method: string;
  /** Route template, e.g. /blogs/{id}. */
  path: string;
  /** The query string, api_key redacted (record-request.ts's loggedQuery); null without one. */
  query: string | null;
  status: number;
  /** The error envelope's code of a 4xx or 5xx answer, e.g. RATE_LIMIT_EXCEEDED. */
  errorCode: string | null;
  latencyMs: number;
  requestId: string;
}

export interface KeyActivity {
  /** The key's usage per day by outcome, over the last 30 days. */
  usage: Pick<Analytics, "from" | "to" | "totals" | "daily">;
  /** Its latest requests still in the log, newest first. */
  recent: LoggedRequest[];
}

/** One key's usage and latest requests; another account's key counts as not found. */
export async function getKeyActivity(db: Db, query: { accountId: string; keyId: string }, now = new Date()): Promise<KeyActivity> {
  const key = await db.apiKey.findFirst({ where: { id: query.keyId, userId: query.accountId }, select: { id: true } });
  if (!key) throw new DomainError("RESOURCE_NOT_FOUND", `no API key with id ${query.keyId}`);
  const [{ from, to, totals, daily }, rows] = await Promise.all([
    getAnalytics({ ...query, ...resolveAnalyticsRange({}, now) }),
    db.apiRequestLog.findMany({
      where: { keyId: key.id },
      // By time, not id: concurrent flushes may insert a later request first.
      orderBy: [{ at: "desc" }, { id: "desc" }],
      take: KEY_RECENT_REQUESTS,
      select: { at: true, method: true, path: true, query: true, status: true, errorCode: true, latencyMs: true, requestId: true },
    }),
  ]);
  return { usage: { from, to, totals, daily }, recent: rows.map((row) => ({ ...row, at: row.at.toISOString() })) };
}
