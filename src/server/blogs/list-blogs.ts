import "server-only";
import type { SqlPool } from "~/server/db";
import { DEFAULT_BLOG_SORT_NAME, parseBlogSort } from "~/shared/blog-sort";
import { queryPrepared } from "~/server/db/prepared-statement";
import { listBlogsSql, type ListBlogsRow } from "./list-blogs-sql";
import { pageOffset, paginate, type Pagination } from "~/server/common/pagination";
import { encodeBlogCursor } from "./blog-cursor";
import type { BlogListPosition, BlogListQuery } from "./blog-list-query";
import type { BlogView } from "./blog-view";
import type { BlogScope } from "./blog-scope";

/** Pagination plus the cursor of the next page (null when there is none). */
export type ListPagination = Pagination & { nextCursor: string | null };

/**
 * The blogs the scope may see, in the asked order (ties by id), one page and the exact total, in
 * a single statement (./list-blogs-sql.ts).
 */
export async function listBlogs(
  sql: SqlPool,
  scope: BlogScope,
  query: BlogListQuery,
  /** Where page `query.page` starts (a previous response's nextCursor): read from there instead of skipping (page - 1) * limit blogs. */
  after?: BlogListPosition,
): Promise<{ blogs: BlogView[]; pagination: ListPagination }> {
  const sort = query.sort ?? DEFAULT_BLOG_SORT_NAME;
  const { text, values } = listBlogsSql({
    ...scope,
    ...query,
    offset: after ? 0 : pageOffset(query.page, query.limit),
    sort: parseBlogSort(sort),
    after,
  });
  // A tag or a search is left to a plan made for its value: how many blogs it matches decides
  // between reading the tag index and walking the sort's index, which one generic plan cannot.
  const { rows } = query.tag || query.q ? await sql.query<ListBlogsRow>(text, values) : await queryPrepared<ListBlogsRow>(sql, text, values);
  const total = rows[0]?.total ?? 0;
  const blogs: BlogView[] = [];
  for (const row of rows) if (row.blog !== null) blogs.push(row.blog);
  const pagination = paginate(query.page, query.limit, total);
  const last = rows.at(-1);
  const nextCursor =
    pagination.hasNext && last && last.id !== null
      ? encodeBlogCursor({
          ...query,
          sort,
          page: query.page + 1,
          key: last.sortKey instanceof Date ? last.sortKey.toISOString() : last.sortKey,
          id: last.id,
        })
      : null;
  return { blogs, pagination: { ...pagination, nextCursor } };
}
