import "server-only";
import type { SqlPool } from "~/server/db";
import { formatCalendarDate } from "~/shared/calendar-date";
import { listBlogsSql, type ListBlogsRow } from "./list-blogs-sql";
import { pageOffset, paginate, type Pagination } from "~/server/pagination";
import { encodeBlogCursor, type BlogCursor } from "./blog-cursor";
import { toBlogView, type BlogView } from "./blog-view";
import type { BlogScope } from "./blog-scope";

export interface ListBlogsQuery {
  page: number;
  limit: number;
  /** Only public (true) or only non-public (false) blogs; both when absent. */
  isPublic?: boolean;
  /** Inclusive whole UTC days: blogs created from the start of `from` to the end of `to`. */
  from?: Date;
  to?: Date;
  /** Matches the title or the slug, ignoring case. */
  search?: string;
  /**
   * Keyset position of page `page` (from a previous response's nextCursor): the page is read
   * from there instead of skipping (page - 1) * limit blogs.
   */
  after?: Pick<BlogCursor, "createdAt" | "id">;
}

/** Pagination plus the cursor of the next page (null when there is none). */
export type ListPagination = Pagination & { nextCursor: string | null };

/**
 * The blogs the scope may see, newest first (ties by id), one page and the exact total, in a
 * single statement (./list-blogs-sql.ts).
 */
export async function listBlogs(
  sql: SqlPool,
  scope: BlogScope,
  query: ListBlogsQuery,
): Promise<{ blogs: BlogView[]; pagination: ListPagination }> {
  const { text, values } = listBlogsSql({
    ...scope,
    search: query.search,
    limit: query.limit,
    offset: query.after ? 0 : pageOffset(query.page, query.limit),
    isPublic: query.isPublic,
    fromDay: query.from && formatCalendarDate(query.from),
    toDay: query.to && formatCalendarDate(query.to),
    after: query.after,
  });
  const { rows } = await sql.query<ListBlogsRow>(text, values);
  const total = rows[0]?.total ?? 0;
  const blogs: BlogView[] = [];
  for (const row of rows) if (row.id !== null) blogs.push(toBlogView(row));
  const pagination = paginate(query.page, query.limit, total);
  const last = rows.at(-1);
  const nextCursor =
    pagination.hasNext && last && last.id !== null
      ? encodeBlogCursor({
          createdAt: last.createdAt,
          id: last.id,
          page: query.page + 1,
          limit: query.limit,
          isPublic: query.isPublic,
          from: query.from,
          to: query.to,
          search: query.search,
        })
      : null;
  return { blogs, pagination: { ...pagination, nextCursor } };
}
