import "server-only";
import type { SqlPool } from "~/server/db";
import type { BlogStatus } from "~/shared/blog-status";
import { DEFAULT_BLOG_SORT_NAME, parseBlogSort, type BlogSortName } from "~/shared/blog-sort";
import { formatCalendarDate } from "~/shared/calendar-date";
import { queryPrepared } from "~/server/db/prepared-statement";
import { listBlogsSql, type ListBlogsRow } from "./list-blogs-sql";
import { pageOffset, paginate, type Pagination } from "~/server/pagination";
import { encodeBlogCursor, type BlogCursor } from "./blog-cursor";
import type { BlogView } from "./blog-view";
import type { BlogScope } from "./blog-scope";

export interface ListBlogsQuery {
  page: number;
  limit: number;
  /** The order (default newest first). */
  sort?: BlogSortName;
  /** Only public (true) or only non-public (false) blogs; both when absent. */
  isPublic?: boolean;
  status?: BlogStatus;
  /** A tag's slug. */
  tag?: string;
  /** Inclusive whole UTC days: blogs created from the start of `from` to the end of `to`. */
  from?: Date;
  to?: Date;
  /** Matches the title or the slug, ignoring case. */
  search?: string;
  /**
   * Keyset position of page `page` (from a previous response's nextCursor): the page is read
   * from there instead of skipping (page - 1) * limit blogs.
   */
  after?: Pick<BlogCursor, "key" | "id">;
}

/** Pagination plus the cursor of the next page (null when there is none). */
export type ListPagination = Pagination & { nextCursor: string | null };

/**
 * The blogs the scope may see, in the asked order (ties by id), one page and the exact total, in
 * a single statement (./list-blogs-sql.ts).
 */
export async function listBlogs(
  sql: SqlPool,
  scope: BlogScope,
  query: ListBlogsQuery,
): Promise<{ blogs: BlogView[]; pagination: ListPagination }> {
  const sort = query.sort ?? DEFAULT_BLOG_SORT_NAME;
  const { text, values } = listBlogsSql({
    ...scope,
    search: query.search,
    limit: query.limit,
    offset: query.after ? 0 : pageOffset(query.page, query.limit),
    sort: parseBlogSort(sort),
    isPublic: query.isPublic,
    status: query.status,
    tagSlug: query.tag,
    fromDay: query.from && formatCalendarDate(query.from),
    toDay: query.to && formatCalendarDate(query.to),
    after: query.after,
  });
  // A tag or a search is left to a plan made for its value: how many blogs it matches decides
  // between reading the tag index and walking the sort's index, which one generic plan cannot.
  const { rows } = query.tag || query.search ? await sql.query<ListBlogsRow>(text, values) : await queryPrepared<ListBlogsRow>(sql, text, values);
  const total = rows[0]?.total ?? 0;
  const blogs: BlogView[] = [];
  for (const row of rows) if (row.blog !== null) blogs.push(row.blog);
  const pagination = paginate(query.page, query.limit, total);
  const last = rows.at(-1);
  const nextCursor =
    pagination.hasNext && last && last.id !== null
      ? encodeBlogCursor({
          sort,
          key: last.sortKey instanceof Date ? last.sortKey.toISOString() : last.sortKey,
          id: last.id,
          page: query.page + 1,
          limit: query.limit,
          isPublic: query.isPublic,
          status: query.status,
          tag: query.tag,
          from: query.from,
          to: query.to,
          search: query.search,
        })
      : null;
  return { blogs, pagination: { ...pagination, nextCursor } };
}
