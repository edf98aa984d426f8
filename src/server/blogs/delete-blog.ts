import "server-only";
import type { Db } from "~/server/db";
import { blogScopeWhere, type BlogScope } from "./blog-scope";
import { writeIfUnchanged, type BlogPrecondition } from "./blog-precondition";
import { blogNotFound } from "./find-blog";

/**
 * Deletes one blog the scope may see, for good. With a precondition, only if the blog still
 * meets it, checked and deleted in one transaction.
 */
export async function deleteBlog(db: Db, scope: BlogScope, id: string, precondition?: BlogPrecondition): Promise<{ id: string; deleted: true }> {
  const remove = async (client: Pick<Db, "blog">) => {
    const { count } = await client.blog.deleteMany({ where: { id, ...blogScopeWhere(scope) } });
    if (count === 0) throw blogNotFound({ id }, scope);
    return { id, deleted: true as const };
  };
  return precondition ? writeIfUnchanged(db, scope, id, precondition, remove) : remove(db);
}
