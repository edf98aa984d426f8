import "server-only";
import { formatCalendarDate, parseCalendarDate } from "~/shared/calendar-date";

/**
 * The opaque `cursor` of GET /api/v1/blogs: the position after the last blog of a page (its
 * createdAt and id, the keyset of the list's order), the page it leads to, and the query it was
 * issued for (limit and filters), so that a request with a cursor reads the next page at the same
 * cost at any depth and reports the same pagination numbers as the page-number request would.
 *
 * Encoding: base64url of a JSON array [version, createdAt ISO, id, page, limit, public, from, to],
 * followed by the search text `q` when there is one.
 * Clients must treat it as opaque; the server validates every field it decodes.
 */
export interface BlogCursor {
  createdAt: Date;
  id: string;
  /** The page this cursor leads to (>= 2). */
  page: number;
  limit: number;
  isPublic?: boolean;
  from?: Date;
  to?: Date;
  search?: string;
}

const VERSION = 1;
const MAX_PAGE = 999_999_999;
/** The longest search text `q` of a list. */
export const MAX_SEARCH_LENGTH = 200;
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export function encodeBlogCursor(cursor: BlogCursor): string {
  const day = (date?: Date) => (date ? formatCalendarDate(date) : null);
  const fields = [
    VERSION,
    cursor.createdAt.toISOString(),
    cursor.id,
    cursor.page,
    cursor.limit,
    cursor.isPublic ?? null,
    day(cursor.from),
    day(cursor.to),
    ...(cursor.search ? [cursor.search] : []),
  ];
  return Buffer.from(JSON.stringify(fields)).toString("base64url");
}

/** What a cursor looks like on the wire: base64url, at most this long. */
export const BLOG_CURSOR_PATTERN = /^[A-Za-z0-9_-]+$/;
export const BLOG_CURSOR_MAX_LENGTH = 512;

/** The cursor a client sent back, or null when it is not one this server issued (in shape). */
export function decodeBlogCursor(value: string): BlogCursor | null {
  if (value.length === 0 || value.length > BLOG_CURSOR_MAX_LENGTH || !BLOG_CURSOR_PATTERN.test(value)) return null;
  let fields: unknown;
  try {
    fields = JSON.parse(Buffer.from(value, "base64url").toString("utf8"));
  } catch {
    return null;
  }
  if (!Array.isArray(fields) || fields.length < 8 || fields.length > 9) return null;
  const [version, createdAt, id, page, limit, isPublic, from, to, search] = fields as unknown[];
  if (version !== VERSION) return null;
  if (typeof createdAt !== "string" || !ISO_MS.test(createdAt)) return null;
  const at = new Date(createdAt);
  if (Number.isNaN(at.getTime()) || at.toISOString() !== createdAt) return null;
  if (typeof id !== "string" || id.length === 0 || id.length > 200) return null;
  if (!Number.isInteger(page) || (page as number) < 2 || (page as number) > MAX_PAGE) return null;
  if (!Number.isInteger(limit) || (limit as number) < 1 || (limit as number) > 50) return null;
  if (isPublic !== null && typeof isPublic !== "boolean") return null;
  const day = (v: unknown): Date | undefined | null =>
    v === null ? undefined : typeof v === "string" ? (parseCalendarDate(v) ?? null) : null;
  const fromDay = day(from);
  const toDay = day(to);
  if (fromDay === null || toDay === null) return null;
  if (fields.length === 9 && (typeof search !== "string" || search.length === 0 || search.length > MAX_SEARCH_LENGTH)) return null;
  return {
    createdAt: at,
    id,
    page: page as number,
    limit: limit as number,
    isPublic: isPublic ?? undefined,
    from: fromDay,
    to: toDay,
    search: search as string | undefined,
  };
}
