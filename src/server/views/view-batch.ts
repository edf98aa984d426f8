import "server-only";
/**
 * Readers' views (docs/public-blog.md, Views) are counted in memory and written in batches
 * (src/server/db/write-batcher.ts): a cached page is answered with no database work, and stays so
 * when it is counted. A view read (GET /api/v1/views, the dashboard) flushes first, so it sees
 * every view this process has counted.
 */
import type { SqlPool } from "~/server/db";
import { createWriteBatcher, rowsInKeyOrder, type WriteBatcher } from "~/server/db/write-batcher";
import { DAY_MS, formatCalendarDate } from "~/shared/calendar-date";

export interface ReaderView {
  accountId: string;
  /** The post shown; null for a page that lists posts (index, tag, search). */
  blogId: string | null;
  /** The referrer's host; null for none (./reader-views.ts). */
  referrerHost: string | null;
  at: Date;
}

/** Stored for "no referrer": a primary key has no null (prisma/schema.prisma, ReferrerViewDaily). */
export const NO_REFERRER_HOST = "";

/** A deleted account or blog takes its views with it (the foreign keys cascade): rows counted for one since deleted are skipped. */
const REFERRER_VIEWS_SQL = `INSERT INTO "referrer_view_daily" ("userId", "day", "host", "views")
SELECT v.* FROM unnest($1::text[], $2::date[], $3::text[], $4::int[]) AS v("userId", "day", "host", "views")
WHERE EXISTS (SELECT 1 FROM "organization" AS a WHERE a."id" = v."userId")
ON CONFLICT ("userId", "day", "host") DO UPDATE SET "views" = "referrer_view_daily"."views" + EXCLUDED."views"`;

const BLOG_VIEWS_SQL = `INSERT INTO "blog_view_daily" ("userId", "day", "blogId", "views")
SELECT v.* FROM unnest($1::text[], $2::date[], $3::text[], $4::int[]) AS v("userId", "day", "blogId", "views")
WHERE EXISTS (SELECT 1 FROM "blog" AS b WHERE b."id" = v."blogId" AND b."userId" = v."userId")
ON CONFLICT ("userId", "day", "blogId") DO UPDATE SET "views" = "blog_view_daily"."views" + EXCLUDED."views"`;

const FLUSH_INTERVAL_MS = 1_000;
/** Rows (distinct referrer hosts and posts of a day) past which a batch is written at once. */
const MAX_BATCH_ROWS = 5_000;

interface ViewRow {
  userId: string;
  day: string;
  /** The host or the blog's id. */
  key: string;
  views: number;
}

interface PendingViews {
  referrers: Map<string, ViewRow>;
  blogs: Map<string, ViewRow>;
}

function addView(rows: Map<string, ViewRow>, userId: string, day: string, key: string): void {
  const id = `${userId}\u0000${day}\u0000${key}`;
  const row = rows.get(id);
  if (row) row.views += 1;
  else rows.set(id, { userId, day, key, views: 1 });
}

async function writeRows(sql: SqlPool, statement: string, rows: Map<string, ViewRow>): Promise<void> {
  if (rows.size === 0) return;
  const sorted = rowsInKeyOrder(rows);
  await sql.query(statement, [sorted.map((r) => r.userId), sorted.map((r) => r.day), sorted.map((r) => r.key), sorted.map((r) => r.views)]);
}

/** The UTC day of `at`, YYYY-MM-DD, formatted once a day rather than once a view. */
let lastDay = { number: -1, text: "" };
function dayOf(at: Date): string {
  const number = Math.floor(at.getTime() / DAY_MS);
  if (number !== lastDay.number) lastDay = { number, text: formatCalendarDate(at) };
  return lastDay.text;
}

export function createViewBatcher(sql: () => SqlPool, intervalMs = FLUSH_INTERVAL_MS): WriteBatcher<ReaderView> {
  return createWriteBatcher<ReaderView, PendingViews>({
    name: "views",
    intervalMs,
    start: () => ({ referrers: new Map(), blogs: new Map() }),
    add(batch, view) {
      const day = dayOf(view.at);
      addView(batch.referrers, view.accountId, day, view.referrerHost ?? NO_REFERRER_HOST);
      if (view.blogId !== null) addView(batch.blogs, view.accountId, day, view.blogId);
    },
    full: (batch) => batch.referrers.size + batch.blogs.size >= MAX_BATCH_ROWS,
    async write(batch) {
      await writeRows(sql(), REFERRER_VIEWS_SQL, batch.referrers);
      await writeRows(sql(), BLOG_VIEWS_SQL, batch.blogs);
    },
  });
}

let processBatcher: WriteBatcher<ReaderView> | undefined;

/** The process's one batcher: the public site records into it, shutdown and view reads flush it. */
export function viewBatcher(sql: () => SqlPool): WriteBatcher<ReaderView> {
  return (processBatcher ??= createViewBatcher(sql));
}
