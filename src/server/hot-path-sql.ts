/**
 * The SQL of the API's hot path, in one place: the server sends it straight to the `pg` pool Prisma
 * runs on (getSqlPool), and the benchmark's bare baseline (bench/baseline.ts) runs the very same
 * text through its own `pg` pool, so the two do identical database work.
 */
import { BLOG_VIEW_COLUMNS, type BlogViewRow } from "./blogs/blog-view";

/** Key lookup by hash with the account's plan: one round trip (Prisma's findUnique takes two). */
export const API_KEY_LOOKUP_SQL = `SELECT k."id", k."userId", k."permissions", k."expiresAt", k."deactivatedAt", k."lastUsedAt", u."plan"::text AS "plan"
FROM "api_key" AS k JOIN "user" AS u ON u."id" = k."userId"
WHERE k."keyHash" = $1`;

export interface ApiKeyRow {
  id: string;
  userId: string;
  permissions: string[];
  expiresAt: Date | null;
  deactivatedAt: Date | null;
  lastUsedAt: Date | null;
  plan: string;
}

/** "Last Used", written at most once a minute per key ($3 = now - 1 minute). */
export const KEY_LAST_USED_SQL = `UPDATE "api_key" SET "lastUsedAt" = $1 WHERE "id" = $2 AND ("lastUsedAt" IS NULL OR "lastUsedAt" < $3)`;

export interface ListBlogsSqlQuery {
  accountId: string;
  /** Only blogs with API access (an API key's scope, src/server/blogs/blog-scope.ts). */
  apiAccessOnly: boolean;
  limit: number;
  /** Rows skipped before the page (page number requests); 0 with a cursor. */
  offset: number;
  isPublic?: boolean;
  /** Inclusive whole UTC days, as YYYY-MM-DD. */
  fromDay?: string;
  toDay?: string;
  /** Matches the title or the slug, ignoring case. */
  search?: string;
  /** Keyset position: only blogs strictly after it in the list's order. */
  after?: { createdAt: Date; id: string };
}

const BLOG_COLUMNS = Object.keys(BLOG_VIEW_COLUMNS);

/** One row per blog of the page, each with `total`; a single row of nulls and `total` when the page is empty. */
export type ListBlogsRow = { total: number } & (BlogViewRow | { [K in keyof BlogViewRow]: null });

/** A LIKE pattern matching `text` anywhere, its wildcards taken literally. */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, "\\$&")}%`;
}

/**
 * One statement, one round trip: the page joined with the exact total. For an API key's list
 * without a search, the total is summed from the per-day counters that triggers keep on "blog"
 * (at most two rows a day, blogs with API access only); the owner's list and searches count the
 * matching blogs. The page comes from the index ("userId", "allowApiAccess"[, "isPublic"],
 * "createdAt" DESC, "id" DESC): page 1 and cursor pages read `limit` index entries; deeper page
 * numbers skip over index entries only (index-only scan of ids, then `limit` rows fetched by id).
 * Only the conditions a query needs are written, so every shape gets a plan of its own.
 */
export function listBlogsSql(query: ListBlogsSqlQuery): { text: string; values: unknown[] } {
  const values: unknown[] = [query.accountId];
  const param = (value: unknown) => {
    values.push(value);
    return `$${values.length}`;
  };
  const counted = [`"userId" = $1`];
  const matched = [`"userId" = $1`];
  if (query.apiAccessOnly) matched.push(`"allowApiAccess"`);
  if (query.isPublic !== undefined) {
    const p = param(query.isPublic);
    counted.push(`"isPublic" = ${p}`);
    matched.push(`"isPublic" = ${p}`);
  }
  if (query.fromDay) {
    const p = param(query.fromDay);
    counted.push(`"day" >= ${p}::date`);
    matched.push(`"createdAt" >= (${p}::date)::timestamp AT TIME ZONE 'UTC'`);
  }
  if (query.toDay) {
    const p = param(query.toDay);
    counted.push(`"day" <= ${p}::date`);
    matched.push(`"createdAt" < (${p}::date + 1)::timestamp AT TIME ZONE 'UTC'`);
  }
  if (query.search) {
    const p = param(containsPattern(query.search));
    matched.push(`("title" ILIKE ${p} OR "blogSlug" ILIKE ${p})`);
  }
  const total =
    query.apiAccessOnly && !query.search
      ? `SELECT COALESCE(sum("count"), 0)::int AS "total" FROM "blog_day_count" WHERE ${counted.join(" AND ")}`
      : `SELECT count(*)::int AS "total" FROM "blog" WHERE ${matched.join(" AND ")}`;
  const listed = [...matched];
  if (query.after) {
    listed.push(`("createdAt", "id") < (${param(query.after.createdAt.toISOString())}::timestamptz, ${param(query.after.id)})`);
  }
  const order = `ORDER BY "createdAt" DESC, "id" DESC`;
  const limit = `LIMIT ${param(query.limit)}`;
  const columns = BLOG_COLUMNS.map((c) => `b."${c}"`).join(", ");
  const page =
    query.offset > 0
      ? `SELECT ${columns} FROM (SELECT "id" FROM "blog" WHERE ${listed.join(" AND ")} ${order} ${limit} OFFSET ${param(query.offset)}) AS ids JOIN "blog" AS b ON b."id" = ids."id"`
      : `SELECT ${columns} FROM "blog" AS b WHERE ${listed.join(" AND ")} ${order} ${limit}`;
  const text = `SELECT t."total", p.* FROM (${total}) AS t
LEFT JOIN (${page}) AS p ON true
ORDER BY p."createdAt" DESC, p."id" DESC`;
  return { text, values };
}

/**
 * Usage rows of many requests in one statement: arrays of equal length, one element per
 * (account, day, key, method, path), added to the day's counters. Rows are sent sorted by their
 * key, so concurrent flushes (several server instances) lock them in the same order.
 */
export const USAGE_FLUSH_SQL = `INSERT INTO "usage_daily" ("userId", "day", "keyId", "method", "path", "requests", "succeeded", "clientErrors", "serverErrors", "rateLimited")
SELECT u.* FROM unnest($1::text[], $2::date[], $3::text[], $4::text[], $5::text[], $6::int[], $7::int[], $8::int[], $9::int[], $10::int[])
  AS u("userId", "day", "keyId", "method", "path", "requests", "succeeded", "clientErrors", "serverErrors", "rateLimited")
-- A key deleted since (with its account) takes its usage with it, as the foreign key's cascade does.
WHERE EXISTS (SELECT 1 FROM "api_key" AS k WHERE k."id" = u."keyId")
ON CONFLICT ("userId", "day", "keyId", "method", "path") DO UPDATE SET
  "requests" = "usage_daily"."requests" + EXCLUDED."requests",
  "succeeded" = "usage_daily"."succeeded" + EXCLUDED."succeeded",
  "clientErrors" = "usage_daily"."clientErrors" + EXCLUDED."clientErrors",
  "serverErrors" = "usage_daily"."serverErrors" + EXCLUDED."serverErrors",
  "rateLimited" = "usage_daily"."rateLimited" + EXCLUDED."rateLimited"`;
