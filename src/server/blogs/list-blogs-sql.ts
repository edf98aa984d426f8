import "server-only";
/**
 * The SQL of the blog list (src/server/blogs/list-blogs.ts), sent to the shared pool
 * (getSqlPool); the benchmark's bare baseline (bench/baseline.ts) runs the same text.
 */
import type { BlogStatus } from "~/shared/blog-status";
import { BLOG_VIEW_SELECT, type BlogView } from "./blog-view";
import { DEFAULT_BLOG_SORT, type BlogSort } from "~/shared/blog-sort";

export interface ListBlogsSqlQuery {
  accountId: string;
  /** Only blogs with API access (an API key's scope, src/server/blogs/blog-scope.ts). */
  apiAccessOnly: boolean;
  limit: number;
  /** Rows skipped before the page (page number requests); 0 with a cursor. */
  offset: number;
  /** The order, default newest first (./blog-sort.ts). */
  sort?: BlogSort;
  isPublic?: boolean;
  status?: BlogStatus;
  /** A tag's slug: only blogs carrying it. */
  tagSlug?: string;
  /** Inclusive whole UTC days, as YYYY-MM-DD. */
  fromDay?: string;
  toDay?: string;
  /** Matches the title or the slug, ignoring case. */
  search?: string;
  /** Keyset position: only blogs strictly after it in the list's order (`key` is the sort column's value as text, null for none). */
  after?: { key: string | null; id: string };
}

/** One row per blog of the page (its id and sort column's value too), each with `total`; a single row of nulls and `total` when the page is empty. */
export type ListBlogsRow = { total: number } & ({ id: string; sortKey: Date | string | null; blog: BlogView } | { id: null; sortKey: null; blog: null });


/** A LIKE pattern matching `text` anywhere, its wildcards taken literally. */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, "\\$&")}%`;
}

/**
 * One statement, one round trip: the page joined with the exact total. For an API key's list
 * without a search or a tag, the total is summed from the per-day counters that triggers keep on
 * "blog" (at most three rows a day, by status, blogs with API access only); the owner's list and
 * other filters count the matching blogs. The page comes from an index on ("userId",
 * "allowApiAccess", [filter,] sort column, "id") read forwards or backwards: page 1 and cursor
 * pages read `limit` index entries; deeper page numbers skip over index entries only
 * (index-only scan of ids, then `limit` rows fetched by id). Only the conditions a query needs
 * are written, so every shape gets a plan of its own.
 */
export function listBlogsSql(query: ListBlogsSqlQuery): { text: string; values: unknown[] } {
  const values: unknown[] = [query.accountId];
  const param = (value: unknown) => {
    values.push(value);
    return `$${values.length}`;
  };
  const sort = query.sort ?? DEFAULT_BLOG_SORT;
  const counted = [`"userId" = $1`];
  const matched = [`"userId" = $1`];
  if (query.apiAccessOnly) matched.push(`"allowApiAccess"`);
  if (query.isPublic !== undefined) {
    matched.push(`"isPublic" = ${param(query.isPublic)}`);
    counted.push(`"status" ${query.isPublic ? "=" : "<>"} 'published'`);
  }
  if (query.status) {
    const p = param(query.status);
    matched.push(`"status" = ${p}::"BlogStatus"`);
    counted.push(`"status" = ${p}::"BlogStatus"`);
  }
  if (query.tagSlug) matched.push(`"tagSlugs" @> ARRAY[${param(query.tagSlug)}]::text[]`);
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
    query.apiAccessOnly && !query.search && !query.tagSlug
      ? `SELECT COALESCE(sum("count"), 0)::int AS "total" FROM "blog_day_count" WHERE ${counted.join(" AND ")}`
      : `SELECT count(*)::int AS "total" FROM "blog" WHERE ${matched.join(" AND ")}`;

  const column = `"${sort.column}"`;
  const direction = sort.descending ? "DESC" : "ASC";
  const order = `ORDER BY ${column} ${direction}, "id" ${direction}`;
  const limit = `LIMIT ${param(query.limit)}`;
  const selected = `b."id", b.${column} AS "sortKey", ${BLOG_VIEW_SELECT}`;
  const read = (conditions: string[]) => `SELECT ${selected} FROM "blog" AS b WHERE ${conditions.join(" AND ")} ${order} ${limit}`;
  let page: string;
  if (query.offset > 0) {
    page = `SELECT ${selected} FROM (SELECT "id" FROM "blog" WHERE ${matched.join(" AND ")} ${order} ${limit} OFFSET ${param(query.offset)}) AS ids JOIN "blog" AS b ON b."id" = ids."id"`;
  } else if (!query.after) {
    page = read(matched);
  } else {
    const ranges = keysetRanges(sort, query.after, param);
    page = ranges.length === 1 ? read([...matched, ranges[0]!]) : ranges.map((range) => `(${read([...matched, range])})`).join(" UNION ALL ");
  }
  const text = `SELECT t."total", p.* FROM (${total}) AS t
LEFT JOIN (${page}) AS p ON true
ORDER BY p."sortKey" ${direction}, p."id" ${direction} ${limit}`;
  return { text, values };
}

/**
 * The positions strictly after `after` in the order `sort`, as conditions that each read one
 * range of the index. A nullable column (publishedAt) has its nulls after every value ascending
 * and before them descending, as PostgreSQL orders them: past a value ascending come the larger
 * values, then the nulls; past a null descending, the remaining nulls, then every value.
 */
function keysetRanges(sort: BlogSort, after: { key: string | null; id: string }, param: (value: unknown) => string): string[] {
  const column = `"${sort.column}"`;
  const beyond = sort.descending ? "<" : ">";
  const id = param(after.id);
  if (after.key === null) {
    const nullsAfter = `${column} IS NULL AND "id" ${beyond} ${id}`;
    return sort.descending ? [nullsAfter, `${column} IS NOT NULL`] : [nullsAfter];
  }
  const key = sort.column === "title" ? param(after.key) : `${param(after.key)}::timestamptz`;
  const valuesAfter = `(${column}, "id") ${beyond} (${key}, ${id})`;
  return sort.column === "publishedAt" && !sort.descending ? [valuesAfter, `${column} IS NULL`] : [valuesAfter];
}
