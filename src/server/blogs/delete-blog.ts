import type { Db } from "~/server/db";
import { blogScopeWhere, type BlogScope } from "./blog-scope";
import { blogNotFound } from "./find-blog";

/** Deletes one blog the scope may see, for good. */
export async function deleteBlog(db: Db, scope: BlogScope, id: string): Promise<{ id: string; deleted: true }> {
  const { count } = await db.blog.deleteMany({ where: { id, ...blogScopeWhere(scope) } });
  if (count === 0) throw blogNotFound({ id }, scope);
  return { id, deleted: true };
}
