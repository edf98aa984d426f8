import type { Db } from "~/server/db";
import { blogNotFound, blogScopeWhere, type BlogScope } from "./find-blog";

/** Deletes one of the account's blogs (API-visible ones only for the "api" scope) for good. */
export async function deleteBlog(
  db: Db,
  accountId: string,
  id: string,
  scope: BlogScope = "api",
): Promise<{ id: string; deleted: true }> {
  const { count } = await db.blog.deleteMany({ where: { id, ...blogScopeWhere(accountId, scope) } });
  if (count === 0) throw blogNotFound({ id }, scope);
  return { id, deleted: true };
}
