import type { Db } from "~/server/db";
import { BLOG_VIEW_COLUMNS, toBlogView } from "./blog-view";

/** What anyone may read without signing in: public blogs, by their owner's handle. */

/** The public blogs of the account with `handle`, for its public index page; null for an unknown handle. */
export async function listPublicBlogs(db: Db, handle: string) {
  const owner = await db.user.findUnique({ where: { handle }, select: { id: true, name: true, handle: true } });
  if (!owner) return null;
  const blogs = await db.blog.findMany({
    where: { userId: owner.id, isPublic: true },
    select: { title: true, blogSlug: true, description: true, createdAt: true, updatedAt: true },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
  return { owner, blogs };
}

/** One public blog by its owner's handle and its slug; null when unknown or not public. */
export async function findPublicBlog(db: Db, handle: string, blogSlug: string) {
  const blog = await db.blog.findFirst({
    where: { blogSlug, isPublic: true, user: { handle } },
    select: { ...BLOG_VIEW_COLUMNS, user: { select: { name: true, handle: true } } },
  });
  if (!blog) return null;
  const { user, ...view } = blog;
  return { blog: toBlogView(view), author: user };
}
