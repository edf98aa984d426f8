import type { Db } from "~/server/db";
import { pageOffset, paginate, type Pagination } from "~/server/pagination";
import { BLOG_VIEW_COLUMNS, toBlogView, type BlogView } from "./blog-view";

export interface ListOwnerBlogsQuery {
  accountId: string;
  /** Matches the title or the slug, ignoring case. */
  search?: string;
  page: number;
  limit: number;
}

/** All of the account's blogs, whatever their flags (the dashboard's table), newest first. */
export async function listOwnerBlogs(
  db: Db,
  query: ListOwnerBlogsQuery,
): Promise<{ blogs: BlogView[]; pagination: Pagination }> {
  const search = query.search?.trim();
  const where = {
    userId: query.accountId,
    ...(search && {
      OR: [
        { title: { contains: search, mode: "insensitive" as const } },
        { blogSlug: { contains: search, mode: "insensitive" as const } },
      ],
    }),
  };
  const [rows, total] = await Promise.all([
    db.blog.findMany({
      where,
      select: BLOG_VIEW_COLUMNS,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      skip: pageOffset(query.page, query.limit),
      take: query.limit,
    }),
    db.blog.count({ where }),
  ]);
  return { blogs: rows.map(toBlogView), pagination: paginate(query.page, query.limit, total) };
}
