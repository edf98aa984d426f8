import "server-only";
/**
 * An account's readers' views (docs/public-blog.md, Views) over a range of whole UTC days: the
 * total, per day, the most viewed posts and the most frequent referrer hosts. Days are UTC until
 * publications have a time zone of their own.
 */
import { getSqlPool } from "~/server/db";
import { hasReplicas, primaryPosition, readOnReplica } from "~/server/db/replicas";
import { assertAnalyticsRange, calendarDays, type DayRange } from "~/server/usage/analytics";
import { formatCalendarDate } from "~/shared/calendar-date";
import { NO_REFERRER_HOST, viewBatcher } from "./view-batch";

/** The most posts and referrer hosts listed; the total counts every view. */
export const VIEWS_LIST_LIMIT = 50;

export interface Views {
  from: string;
  to: string;
  total: number;
  /** One entry per day from `from` to `to`, ascending, zeros included. */
  daily: { date: string; views: number }[];
  /** The posts viewed in the range, most viewed first (ties by id), at most VIEWS_LIST_LIMIT. */
  blogs: { id: string; blogSlug: string; title: string; views: number }[];
  /** Referrer hosts, most views first (ties by host); null: none or the site itself. At most VIEWS_LIST_LIMIT. */
  referrers: { host: string | null; views: number }[];
}

export async function getViews(query: { accountId: string } & DayRange): Promise<Views> {
  assertAnalyticsRange(query);
  // Views are counted in memory: this process's are written first, so what it answered is in the read.
  await viewBatcher(getSqlPool).flush();
  const position = hasReplicas() ? await primaryPosition() : 0n;
  const { value } = await readOnReplica(position, ({ db }) =>
    // One snapshot: the days, posts and referrers add up to the same total.
    db.$transaction(
      async (tx) => {
        const where = { userId: query.accountId, day: { gte: query.from, lte: query.to } };
        const perDay = await tx.referrerViewDaily.groupBy({ by: ["day"], where, _sum: { views: true } });
        const referrers = await tx.referrerViewDaily.groupBy({
          by: ["host"],
          where,
          _sum: { views: true },
          orderBy: [{ _sum: { views: "desc" } }, { host: "asc" }],
          take: VIEWS_LIST_LIMIT,
        });
        const blogs = await tx.blogViewDaily.groupBy({
          by: ["blogId"],
          where,
          _sum: { views: true },
          orderBy: [{ _sum: { views: "desc" } }, { blogId: "asc" }],
          take: VIEWS_LIST_LIMIT,
        });
        const names = await tx.blog.findMany({ where: { id: { in: blogs.map((b) => b.blogId) } }, select: { id: true, blogSlug: true, title: true } });
        return { perDay, referrers, blogs, names };
      },
      { isolationLevel: "RepeatableRead" },
    ),
  );
  const byDay = new Map(value.perDay.map((row) => [formatCalendarDate(row.day), row._sum.views ?? 0]));
  const daily = calendarDays(query).map((date) => ({ date, views: byDay.get(date) ?? 0 }));
  const names = new Map(value.names.map((blog) => [blog.id, blog]));
  return {
    from: formatCalendarDate(query.from),
    to: formatCalendarDate(query.to),
    total: daily.reduce((sum, day) => sum + day.views, 0),
    daily,
    blogs: value.blogs.flatMap(({ blogId, _sum }) => {
      const blog = names.get(blogId);
      return blog ? [{ id: blog.id, blogSlug: blog.blogSlug, title: blog.title, views: _sum.views ?? 0 }] : [];
    }),
    referrers: value.referrers.map(({ host, _sum }) => ({ host: host === NO_REFERRER_HOST ? null : host, views: _sum.views ?? 0 })),
  };
}
