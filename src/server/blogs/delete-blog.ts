import type { Db } from "~/server/db";
import { blogNotFound } from "./find-blog";

/** Deletes one of the account's API-visible blogs for good. */
export async function deleteBlog(db: Db, accountId: string, id: string): Promise<{ id: string; deleted: true }> {
  const { count } = await db.blog.deleteMany({ where: { id, userId: accountId, allowApiAccess: true } });
  if (count === 0) throw blogNotFound({ id });
  return { id, deleted: true };
}
