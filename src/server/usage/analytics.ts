import "server-only";
import type { Db } from "~/server/db";
import { hasReplicas, primaryPosition, readOnReplica } from "~/server/db/replicas";
import { DAY_MS, formatCalendarDate } from "~/shared/calendar-date";
import { DomainError } from "~/server/common/domain-error";

/**
 * An account's API usage over a range of whole UTC days, read from the daily aggregates
 * (usage_daily) with GROUP BY queries: per day, per key and per endpoint.
 */

/** Days in the range when neither bound is given, and the most one request may ask for. */
export const DEFAULT_RANGE_DAYS = 30;
export const MAX_RANGE_DAYS = 366;


export interface UsageCounts {
  /** Every request: succeeded + notModified + clientErrors + serverErrors + rateLimited. */
  requests: number;
  succeeded: number;
  /** 304 answers to conditional GETs (README, The API), counted here only (they cost no rate limit). */
  notModified: number;
  clientErrors: number;
  serverErrors: number;
  /** 429 answers, counted here only (not under clientErrors). */
  rateLimited: number;
}

export interface Analytics {
  from: string;
  to: string;
  totals: UsageCounts;
  /** One entry per day from `from` to `to`, ascending, zeros included. */
  daily: (UsageCounts & { date: string })[];
  /** Keys with requests in the range, most requests first. */
  byKey: { keyId: string; name: string; requests: number }[];
  /** Endpoints (method and route template) with requests in the range, most requests first. */
  byEndpoint: { method: string; path: string; requests: number }[];
}

/** Whole UTC days, both inclusive: each bound is midnight UTC of its day. */
export interface DayRange {
  from: Date;
  to: Date;
}

function startOfUtcDay(date: Date): Date {
  return new Date(Math.floor(date.getTime() / DAY_MS) * DAY_MS);
}

function addDays(day: Date, days: number): Date {
  return new Date(day.getTime() + days * DAY_MS);
}

/** Each day of the range, ascending, as YYYY-MM-DD. */
export function calendarDays({ from, to }: DayRange): string[] {
  const days: string[] = [];
  for (let day = startOfUtcDay(from); day.getTime() <= to.getTime(); day = addDays(day, 1)) days.push(formatCalendarDate(day));
  return days;
}

/** How many days the range holds, both bounds included. */
export function daysInRange({ from, to }: DayRange): number {
  return Math.round((startOfUtcDay(to).getTime() - startOfUtcDay(from).getTime()) / DAY_MS) + 1;
}

/**
 * The range a request asks for. `to` defaults to today (UTC); `from` defaults to 29 days before
 * `to`, so that no bound gives the last 30 days ending today, and only `to` the 30 days ending
 * then. Only `from` gives from that day through today.
 */
export function resolveAnalyticsRange(requested: { from?: Date; to?: Date }, now: Date = new Date()): DayRange {
  const to = startOfUtcDay(requested.to ?? now);
  const from = requested.from ? startOfUtcDay(requested.from) : addDays(to, -(DEFAULT_RANGE_DAYS - 1));
  assertAnalyticsRange({ from, to });
  return { from, to };
}

/** `from` must not be after `to`, and the range must hold at most MAX_RANGE_DAYS days. */
export function assertAnalyticsRange(range: DayRange): void {
  const [from, to] = [formatCalendarDate(range.from), formatCalendarDate(range.to)];
  if (range.from.getTime() > range.to.getTime()) {
    throw new DomainError("INVALID_PARAMETER", "Invalid parameter: from", `from (${from}) must not be after to (${to})`, "from");
  }
  const days = daysInRange(range);
  if (days > MAX_RANGE_DAYS) {
    throw new DomainError(
      "INVALID_PARAMETER",
      "Invalid parameter: from",
      `from and to must span at most ${MAX_RANGE_DAYS} days; ${from} to ${to} spans ${days} days`,
      "from",
    );
  }
}

const ZERO: UsageCounts = { requests: 0, succeeded: 0, notModified: 0, clientErrors: 0, serverErrors: 0, rateLimited: 0 };

/**
 * The usage of every key of `accountId` (or of its key `keyId` alone) from `from` to `to` (whole UTC days, inclusive). The
 * queries run in one repeatable-read transaction, so totals, keys and endpoints add up; on a read
 * replica once it has replayed every usage write committed before the call, else on the primary
 * (docs/read-replicas.md), so that every earlier request is counted as on the primary.
 */
export async function getAnalytics(query: { accountId: string; keyId?: string } & DayRange): Promise<Analytics> {
  const from = startOfUtcDay(query.from);
  const to = startOfUtcDay(query.to);
  assertAnalyticsRange({ from, to });
  const position = hasReplicas() ? await primaryPosition() : 0n;
  const { value } = await readOnReplica(position, ({ db }) => usageQueries(db, { ...query, from, to }));
  return summarize(from, to, value);
}

function usageQueries(db: Db, query: { accountId: string; keyId?: string } & DayRange) {
  const where = { userId: query.accountId, keyId: query.keyId, day: { gte: query.from, lte: query.to } };
  return db.$transaction(
    [
      db.usageDaily.groupBy({
        by: ["day"],
        where,
        _sum: { requests: true, succeeded: true, notModified: true, clientErrors: true, serverErrors: true, rateLimited: true },
        orderBy: { day: "asc" },
      }),
      db.usageDaily.groupBy({
        by: ["keyId"],
        where,
        _sum: { requests: true },
        orderBy: [{ _sum: { requests: "desc" } }, { keyId: "asc" }],
      }),
      db.usageDaily.groupBy({
        by: ["method", "path"],
        where,
        _sum: { requests: true },
        orderBy: [{ _sum: { requests: "desc" } }, { path: "asc" }, { method: "asc" }],
      }),
      // The names of the keys with usage in the range (an EXISTS over the same rows).
      db.apiKey.findMany({ where: { userId: query.accountId, usage: { some: where } }, select: { id: true, name: true } }),
    ],
    { isolationLevel: "RepeatableRead" },
  );
}

function summarize(from: Date, to: Date, [perDay, perKey, perEndpoint, keys]: Awaited<ReturnType<typeof usageQueries>>): Analytics {
  const byDay = new Map(
    perDay.map(({ day, _sum: sum }) => [
      formatCalendarDate(day),
      {
        requests: sum?.requests ?? 0,
        succeeded: sum?.succeeded ?? 0,
        notModified: sum?.notModified ?? 0,
        clientErrors: sum?.clientErrors ?? 0,
        serverErrors: sum?.serverErrors ?? 0,
        rateLimited: sum?.rateLimited ?? 0,
      },
    ]),
  );
  const daily: Analytics["daily"] = [];
  const totals = { ...ZERO };
  for (const date of calendarDays({ from, to })) {
    const counts = byDay.get(date) ?? ZERO;
    daily.push({ date, ...counts });
    for (const field of Object.keys(totals) as (keyof UsageCounts)[]) totals[field] += counts[field];
  }

  const names = new Map(keys.map((key) => [key.id, key.name]));
  return {
    from: formatCalendarDate(from),
    to: formatCalendarDate(to),
    totals,
    daily,
    byKey: perKey.map((row) => ({ keyId: row.keyId, name: names.get(row.keyId) ?? "", requests: row._sum?.requests ?? 0 })),
    byEndpoint: perEndpoint.map((row) => ({ method: row.method, path: row.path, requests: row._sum?.requests ?? 0 })),
  };
}

/** Requests of the account refused with 429 on the current UTC day. */
export async function rateLimitedToday(db: Db, accountId: string, now = new Date()): Promise<number> {
  const { _sum: sum } = await db.usageDaily.aggregate({ where: { userId: accountId, day: startOfUtcDay(now) }, _sum: { rateLimited: true } });
  return sum.rateLimited ?? 0;
}
