import "server-only";
import type { Db, SqlPool } from "~/server/db";
import { DomainError } from "~/server/common/domain-error";
import { pageOffset, paginate, type Pagination } from "~/server/common/pagination";
import type { BlogView } from "./blog-view";
import type { BlogScope } from "./blog-scope";
import type { BlogPrecondition } from "./blog-precondition";
import { findBlog } from "./find-blog";
import { updateBlog } from "./update-blog";

/**
 * A blog's revisions (docs/api.md, revisions): the text fields after each change, written by a
 * trigger on "blog" with what made the change; the newest 100 per blog are kept.
 */
export const REVISION_SOURCES = ["owner", "api_key", "cli", "import", "restore", "database"] as const;

export interface RevisionSummary {
  id: string;
  blogId: string;
  createdAt: string;
  /** What made the change; "database" for a write from outside the app. */
  changedBy: (typeof REVISION_SOURCES)[number];
  /** The API key's name when changedBy is api_key. */
  apiKeyName: string | null;
  changedFields: string[];
  title: string;
}

export interface Revision extends RevisionSummary {
  description: string;
  content: string;
  seoTitle: string;
  seoDescription: string;
  tags: string[];
}

const SUMMARY_COLUMNS = `"id", "blogId", to_char("createdAt" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt",
  "changedBy", "changedByName" AS "apiKeyName", COALESCE("changedFields", '{}') AS "changedFields", "title"`;
const TEXT_COLUMNS = `"description", "content", "seoTitle", "seoDescription", COALESCE("tags", '{}') AS "tags"`;

/** One page of the blog's revisions, newest first, with the exact total. */
export async function listRevisions(
  db: Db,
  sql: SqlPool,
  scope: BlogScope,
  blogId: string,
  { page, limit }: { page: number; limit: number },
): Promise<{ revisions: RevisionSummary[]; pagination: Pagination }> {
  await findBlog(db, scope, { id: blogId });
  const { rows } = await sql.query<{ total: number; revisions: RevisionSummary[] }>(
    `SELECT (SELECT count(*)::int FROM "blog_revision" WHERE "blogId" = $1) AS "total",
            COALESCE((SELECT json_agg(r) FROM (
              SELECT ${SUMMARY_COLUMNS} FROM "blog_revision" WHERE "blogId" = $1 ORDER BY "seq" DESC LIMIT $2 OFFSET $3
            ) AS r), '[]') AS "revisions"`,
    [blogId, limit, pageOffset(page, limit)],
  );
  const { total, revisions } = rows[0]!;
  return { revisions, pagination: paginate(page, limit, total) };
}

/** One revision of a blog the scope may see. */
export async function findRevision(db: Db, sql: SqlPool, scope: BlogScope, blogId: string, revisionId: string): Promise<Revision> {
  await findBlog(db, scope, { id: blogId });
  const { rows } = await sql.query<Revision>(
    `SELECT ${SUMMARY_COLUMNS}, ${TEXT_COLUMNS} FROM "blog_revision" WHERE "id" = $1 AND "blogId" = $2`,
    [revisionId, blogId],
  );
  if (!rows[0]) throw new DomainError("RESOURCE_NOT_FOUND", `No revision ${revisionId} of blog ${blogId}`);
  return rows[0];
}

/**
 * Writes a revision's text back to its blog as a new change (itself a revision, "restore"), under
 * the same precondition as any update (If-Match).
 */
export async function restoreRevision(
  db: Db,
  sql: SqlPool,
  scope: BlogScope,
  blogId: string,
  revisionId: string,
  precondition?: BlogPrecondition,
): Promise<BlogView> {
  const revision = await findRevision(db, sql, scope, blogId, revisionId);
  const { title, description, content, seoTitle, seoDescription, tags } = revision;
  return updateBlog(db, scope, blogId, { title, description, content, seoTitle, seoDescription, tags }, { precondition, source: { by: "restore" } });
}
