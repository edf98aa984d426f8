import type { Db } from "~/server/db";
import { DomainError } from "~/server/domain-error";
import { BLOG_VIEW_COLUMNS, toBlogView, type BlogView } from "./blog-view";

export type BlogLocator = { id: string } | { blogSlug: string };

/**
 * One of the account's blogs as the API may see it. A blog of another account, or one without
 * API access, does not exist for the API: both are RESOURCE_NOT_FOUND, like an unknown one.
 */
export async function findApiBlog(db: Db, accountId: string, locator: BlogLocator): Promise<BlogView> {
  const blog = await db.blog.findFirst({
    where: { ...locator, userId: accountId, allowApiAccess: true },
    select: BLOG_VIEW_COLUMNS,
  });
  if (!blog) throw blogNotFound(locator);
  return toBlogView(blog);
}

/** Spec 7.2: RESOURCE_NOT_FOUND carries no details. */
export function blogNotFound(locator: BlogLocator): DomainError {
  const what = "id" in locator ? `id ${locator.id}` : `slug ${locator.blogSlug}`;
  return new DomainError("RESOURCE_NOT_FOUND", `No blog with ${what} is accessible to this API key`);
}

export function slugConflict(blogSlug: string): DomainError {
  return new DomainError("RESOURCE_CONFLICT", "Resource conflict", `A blog with the slug ${blogSlug} already exists`);
}
