import type { Db } from "~/server/db";
import { isUniqueViolation } from "~/server/prisma-errors";
import { BLOG_VIEW_COLUMNS, toBlogView, type BlogView } from "./blog-view";
import { slugConflict } from "./find-blog";
import { firstFreeSlug, slugify } from "./slug";

export interface NewBlog {
  title: string;
  blogSlug?: string;
  description?: string;
  content?: string;
  isPublic?: boolean;
  seoTitle?: string;
  seoDescription?: string;
}

/**
 * Attempts at a derived slug: each round of concurrent creates of one title lets at least one of
 * them through, so N simultaneous creates need at most N rounds.
 */
const DERIVED_SLUG_ATTEMPTS = 50;

/**
 * Creates a blog, reachable over the API unless the owner says otherwise. An explicit slug the
 * account already uses is a conflict; without one, the slug is derived from the title (`-2`,
 * `-3`, … when taken). The unique index on (account, slug) settles races: never two blogs with
 * one slug.
 */
export async function createBlog(
  db: Db,
  accountId: string,
  blog: NewBlog,
  /** The dashboard lets the owner choose; blogs created over the API always have API access. */
  { allowApiAccess = true }: { allowApiAccess?: boolean } = {},
): Promise<BlogView> {
  const insert = (blogSlug: string) =>
    db.blog.create({
      data: { ...blog, blogSlug, userId: accountId, allowApiAccess },
      select: BLOG_VIEW_COLUMNS,
    });

  if (blog.blogSlug !== undefined) {
    try {
      return toBlogView(await insert(blog.blogSlug));
    } catch (error) {
      throw isUniqueViolation(error) ? slugConflict(blog.blogSlug) : error;
    }
  }
  const base = slugify(blog.title);
  for (let attempt = 1; ; attempt++) {
    const slug = await freeSlugFor(db, accountId, base);
    try {
      return toBlogView(await insert(slug));
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      if (attempt === DERIVED_SLUG_ATTEMPTS) throw slugConflict(slug);
    }
  }
}

async function freeSlugFor(db: Db, accountId: string, base: string): Promise<string> {
  const similar = await db.blog.findMany({
    where: { userId: accountId, blogSlug: { startsWith: base } },
    select: { blogSlug: true },
  });
  const taken = new Set(similar.map((b) => b.blogSlug));
  return firstFreeSlug(base, (slug) => taken.has(slug));
}
