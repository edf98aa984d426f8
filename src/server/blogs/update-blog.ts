import type { Db } from "~/server/db";
import { isRecordNotFound, isUniqueViolation } from "~/server/prisma-errors";
import { BLOG_VIEW_COLUMNS, toBlogView, type BlogView } from "./blog-view";
import type { NewBlog } from "./create-blog";
import { blogNotFound, slugConflict } from "./find-blog";

export type BlogChanges = Partial<NewBlog>;

/** Changes the given fields of one of the account's API-visible blogs; updatedAt advances. */
export async function updateBlog(db: Db, accountId: string, id: string, changes: BlogChanges): Promise<BlogView> {
  try {
    const blog = await db.blog.update({
      where: { id, userId: accountId, allowApiAccess: true },
      data: changes,
      select: BLOG_VIEW_COLUMNS,
    });
    return toBlogView(blog);
  } catch (error) {
    if (isRecordNotFound(error)) throw blogNotFound({ id });
    if (isUniqueViolation(error) && changes.blogSlug !== undefined) throw slugConflict(changes.blogSlug);
    throw error;
  }
}
