import "server-only";
import { formatCalendarDate, parseCalendarDate } from "~/shared/calendar-date";
import { BLOG_STATUSES, type BlogStatus } from "~/shared/blog-status";
import { BLOG_SORTS, DEFAULT_BLOG_SORT_NAME, parseBlogSort, type BlogSort, type BlogSortName } from "~/shared/blog-sort";
import { MAX_SEARCH_LENGTH } from "~/shared/blog-fields";
import type { BlogListPosition, BlogListQuery } from "./blog-list-query";

/**
 * The opaque `cursor` of GET /api/v1/blogs: the position after the last blog of a page (its
 * value of the sort column and its id, the keyset of the list's order), the page it leads to, and
 * the query it was issued for (sort, limit and filters), so that a request with a cursor reads the
 * next page at the same cost at any depth and reports the same pagination numbers as the
 * page-number request would.
 *
 * Encoding: base64url of a JSON array [version, key, id, page, limit, public, from, to, sort,
 * status, tag], followed by the search text `q` when there is one (positions, not names: renaming a
 * field leaves issued cursors valid). Version 1 cursors (before sorts, status and tags: [1,
 * createdAt, id, page, limit, public, from, to, q?]) still read.
 * Clients must treat it as opaque; the server validates every field it decodes.
 */
export interface BlogCursor extends BlogListQuery, BlogListPosition {
  sort: BlogSortName;
  /** The last blog's value of the sort column: ISO 8601 for a time, the title, or null (no publishedAt). */
  key: string | null;
  /** The page this cursor leads to (>= 2). */
  page: number;
}

const VERSION = 2;
const MAX_PAGE = 999_999_999;
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export function encodeBlogCursor(cursor: BlogCursor): string {
  const day = (date?: Date) => (date ? formatCalendarDate(date) : null);
  const fields = [
    VERSION,
    cursor.key,
    cursor.id,
    cursor.page,
    cursor.limit,
    cursor.public ?? null,
    day(cursor.from),
    day(cursor.to),
    cursor.sort,
    cursor.status ?? null,
    cursor.tag ?? null,
    ...(cursor.q ? [cursor.q] : []),
  ];
  return Buffer.from(JSON.stringify(fields)).toString("base64url");
}

/** What a cursor looks like on the wire: base64url, at most this long (a title of 200 characters fits). */
export const BLOG_CURSOR_PATTERN = /^[A-Za-z0-9_-]+$/;
export const BLOG_CURSOR_MAX_LENGTH = 2048;

/** The cursor a client sent back, or null when it is not one this server issued (in shape). */
export function decodeBlogCursor(value: string): BlogCursor | null {
  if (value.length === 0 || value.length > BLOG_CURSOR_MAX_LENGTH || !BLOG_CURSOR_PATTERN.test(value)) return null;
  let fields: unknown;
  try {
    fields = JSON.parse(Buffer.from(value, "base64url").toString("utf8"));
  } catch {
    return null;
  }
  if (!Array.isArray(fields)) return null;
  // Version 1: newest first, no status or tag; its search (if any) came ninth.
  if (fields[0] === 1 && (fields.length === 8 || fields.length === 9)) {
    fields = [VERSION, ...fields.slice(1, 8), DEFAULT_BLOG_SORT_NAME, null, null, ...fields.slice(8)];
  }
  const list = fields as unknown[];
  if (list.length < 11 || list.length > 12) return null;
  const [version, key, id, page, limit, isPublic, from, to, sort, status, tag, q] = list;
  if (version !== VERSION) return null;
  if (typeof sort !== "string" || !(BLOG_SORTS as readonly string[]).includes(sort)) return null;
  if (!validKey(parseBlogSort(sort as BlogSortName).column, key)) return null;
  if (typeof id !== "string" || id.length === 0 || id.length > 200) return null;
  if (!Number.isInteger(page) || (page as number) < 2 || (page as number) > MAX_PAGE) return null;
  if (!Number.isInteger(limit) || (limit as number) < 1 || (limit as number) > 50) return null;
  if (isPublic !== null && typeof isPublic !== "boolean") return null;
  const day = (v: unknown): Date | undefined | null =>
    v === null ? undefined : typeof v === "string" ? (parseCalendarDate(v) ?? null) : null;
  const fromDay = day(from);
  const toDay = day(to);
  if (fromDay === null || toDay === null) return null;
  if (status !== null && !(BLOG_STATUSES as readonly unknown[]).includes(status)) return null;
  if (tag !== null && (typeof tag !== "string" || tag.length === 0 || tag.length > 200)) return null;
  if (list.length === 12 && (typeof q !== "string" || q.length === 0 || q.length > MAX_SEARCH_LENGTH)) return null;
  return {
    sort: sort as BlogSortName,
    key: key as string | null,
    id,
    page: page as number,
    limit: limit as number,
    public: isPublic ?? undefined,
    status: (status as BlogStatus | null) ?? undefined,
    tag: (tag as string | null) ?? undefined,
    from: fromDay,
    to: toDay,
    q: q as string | undefined,
  };
}

/** A sort key as the server writes it: a time to the millisecond (null only for publishedAt), or a title. */
function validKey(column: BlogSort["column"], key: unknown): boolean {
  if (column === "title") return typeof key === "string" && key.length > 0 && key.length <= 200;
  if (key === null) return column === "publishedAt";
  if (typeof key !== "string" || !ISO_MS.test(key)) return false;
  const at = new Date(key);
  return !Number.isNaN(at.getTime()) && at.toISOString() === key;
}
