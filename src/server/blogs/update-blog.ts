import "server-only";
import type { Db } from "~/server/db";
import { isRecordNotFound, isUniqueViolation } from "~/server/prisma-errors";
import { BLOG_VIEW_COLUMNS, toBlogView, type BlogView } from "./blog-view";
import { blogScopeWhere, type BlogScope } from "./blog-scope";
import { writeIfUnchanged, type BlogPrecondition } from "./blog-precondition";
import type { NewBlog } from "./create-blog";
import { blogNotFound, slugConflict } from "./find-blog";

/** What may change: every field; allowApiAccess only by the owner (the caller decides, see blog-scope.ts). */
export type BlogChanges = Partial<NewBlog> & { allowApiAccess?: boolean };

/**
 * Changes the given fields of one blog the scope may see; updatedAt advances. With a
 * precondition, only if the blog still meets it, checked and written in one transaction.
 */
export async function updateBlog(db: Db, scope: BlogScope, id: string, changes: BlogChanges, precondition?: BlogPrecondition): Promise<BlogView> {
  const update = async (client: Pick<Db, "blog">) =>
    toBlogView(await client.blog.update({ where: { id, ...blogScopeWhere(scope) }, data: changes, select: BLOG_VIEW_COLUMNS }));
  try {
    return precondition ? await writeIfUnchanged(db, scope, id, precondition, update) : await update(db);
  } catch (error) {
    if (isRecordNotFound(error)) throw blogNotFound({ id }, scope);
    if (isUniqueViolation(error) && changes.blogSlug !== undefined) throw slugConflict(changes.blogSlug);
    throw error;
  }
}
