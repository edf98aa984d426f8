import "server-only";
/**
 * The SQL of the blog list (src/server/blogs/list-blogs.ts), sent to the shared pool
 * (getSqlPool); the benchmark's bare baseline (bench/baseline.ts) runs the same text.
 */
import { BLOG_VIEW_COLUMNS, type BlogViewRow } from "./blog-view";

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
