import type { Db } from "~/server/db";
import { endOfDay } from "~/server/calendar-date";
import { pageOffset, paginate, type Pagination } from "~/server/pagination";
import { BLOG_VIEW_COLUMNS, toBlogView, type BlogView } from "./blog-view";

export interface ListBlogsQuery {
  accountId: string;
  page: number;
  limit: number;
  /** Only public (true) or only non-public (false) blogs; both when absent. */
  isPublic?: boolean;
  /** Inclusive whole UTC days: blogs created from the start of `from` to the end of `to`. */
  from?: Date;
  to?: Date;
}

/** The account's API-visible blogs, newest first (ties by id), one page and the exact total. */
export async function listBlogs(db: Db, query: ListBlogsQuery): Promise<{ blogs: BlogView[]; pagination: Pagination }> {
  const where = {
    userId: query.accountId,
    allowApiAccess: true,
    isPublic: query.isPublic,
    createdAt: { gte: query.from, lt: query.to && endOfDay(query.to) },
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
