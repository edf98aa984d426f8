import type { Db } from "~/server/db";
import { isRecordNotFound, isUniqueViolation } from "~/server/prisma-errors";
import { BLOG_VIEW_COLUMNS, toBlogView, type BlogView } from "./blog-view";
import type { NewBlog } from "./create-blog";
import { blogNotFound, blogScopeWhere, slugConflict, type BlogScope } from "./find-blog";

export type BlogChanges = Partial<NewBlog>;

/** What the owner may change in the dashboard: every field, API access included. */
export type OwnerBlogChanges = BlogChanges & { allowApiAccess?: boolean };

/**
 * Changes the given fields of one of the account's blogs (API-visible ones only for the "api"
 * scope); updatedAt advances.
 */
export async function updateBlog<S extends BlogScope = "api">(
  db: Db,
  accountId: string,
  id: string,
  changes: S extends "owner" ? OwnerBlogChanges : BlogChanges,
  scope: S = "api" as S,
): Promise<BlogView> {
  try {
    const blog = await db.blog.update({
      where: { id, ...blogScopeWhere(accountId, scope) },
      data: changes,
      select: BLOG_VIEW_COLUMNS,
    });
    return toBlogView(blog);
  } catch (error) {
    if (isRecordNotFound(error)) throw blogNotFound({ id }, scope);
    if (isUniqueViolation(error) && changes.blogSlug !== undefined) throw slugConflict(changes.blogSlug);
    throw error;
  }
}
