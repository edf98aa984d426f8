import "server-only";
import type { BlogSortName } from "~/shared/blog-sort";
import type { BlogStatus } from "~/shared/blog-status";

/**
 * What a blog list asks for, each field named as its GET /api/v1/blogs query parameter
 * (docs/api.md): the procedure's input, the cursor continuing a list and the list's SQL share it.
 */
export interface BlogListQuery {
  page: number;
  limit: number;
  /** The order (default newest first). */
  sort?: BlogSortName;
  /** Only public (true) or only non-public (false) blogs; both when absent. */
  public?: boolean;
  status?: BlogStatus;
  /** A tag's slug. */
  tag?: string;
  /** Inclusive whole UTC days: blogs created from the start of `from` to the end of `to`. */
  from?: Date;
  to?: Date;
  /** Search text, trimmed: matches the title or the slug, ignoring case. */
  q?: string;
}

/** A keyset position in a list's order: the sort column's value as text (null for none) and the blog's id. */
export interface BlogListPosition {
  key: string | null;
  id: string;
}

// A record, so that a parameter added to the query cannot be left out; its order is the order
// in which a cursor's conflicts are reported.
const parameters: Record<keyof BlogListQuery, null> = { page: null, limit: null, sort: null, public: null, status: null, tag: null, from: null, to: null, q: null };

/** Every parameter of a list's query. */
export const BLOG_LIST_PARAMETERS = Object.keys(parameters) as (keyof BlogListQuery)[];
