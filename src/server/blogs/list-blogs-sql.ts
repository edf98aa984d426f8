import "server-only";
/**
 * The SQL of the blog list (src/server/blogs/list-blogs.ts), sent to the shared pool
 * (getSqlPool); the benchmark's bare baseline (bench/baseline.ts) runs the same text.
 */
import { formatCalendarDate } from "~/shared/calendar-date";
import { BLOG_VIEW_SELECT, type BlogView } from "./blog-view";
import { DEFAULT_BLOG_SORT, type BlogSort } from "~/shared/blog-sort";
import type { BlogListPosition, BlogListQuery } from "./blog-list-query";

/** The list's query (its page number as `offset`, its sort parsed) and the scope it reads in. */
export interface ListBlogsSqlQuery extends Omit<BlogListQuery, "page" | "sort"> {
  accountId: string;
  /** Only blogs with API access (an API key's scope, src/server/blogs/blog-scope.ts). */
  apiAccessOnly: boolean;
  /** Rows skipped before the page (page number requests); 0 with a cursor. */
  offset: number;
  /** The order, default newest first (src/shared/blog-sort.ts). */
  sort?: BlogSort;
  /** Keyset position: only blogs strictly after it in the list's order. */
  after?: BlogListPosition;
}

/** One row per blog of the page (its id and sort column's value too), each with `total`; a single row of nulls and `total` when the page is empty. */
export type ListBlogsRow = { total: number } & ({ id: string; sortKey: Date | string | null; blog: BlogView } | { id: null; sortKey: null; blog: null });


/** A LIKE pattern matching `text` anywhere, its wildcards taken literally. */
export function containsPattern(text: string): string {
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
  if (query.public !== undefined) {
    matched.push(`"isPublic" = ${param(query.public)}`);
    counted.push(`"status" ${query.public ? "=" : "<>"} 'published'`);
  }
  if (query.status) {
    const p = param(query.status);
    matched.push(`"status" = ${p}::"BlogStatus"`);
    counted.push(`"status" = ${p}::"BlogStatus"`);
  }
  if (query.tag) matched.push(`"tagSlugs" @> ARRAY[${param(query.tag)}]::text[]`);
  if (query.from) {
    const p = param(formatCalendarDate(query.from));
    counted.push(`"day" >= ${p}::date`);
    matched.push(`"createdAt" >= (${p}::date)::timestamp AT TIME ZONE 'UTC'`);
  }
  if (query.to) {
    const p = param(formatCalendarDate(query.to));
    counted.push(`"day" <= ${p}::date`);
    matched.push(`"createdAt" < (${p}::date + 1)::timestamp AT TIME ZONE 'UTC'`);
  }
  if (query.q) {
    const p = param(containsPattern(query.q));
    matched.push(`("title" ILIKE ${p} OR "blogSlug" ILIKE ${p})`);
  }
  const total =
    query.apiAccessOnly && !query.q && !query.tag
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
function keysetRanges(sort: BlogSort, after: BlogListPosition, param: (value: unknown) => string): string[] {
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
