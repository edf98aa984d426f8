import "server-only";
import type { Prisma } from "~/generated/prisma/client";
import type { Db } from "~/server/db";
import { DomainError } from "~/server/domain-error";
import { BLOG_VIEW_COLUMNS, toBlogView, type BlogView } from "./blog-view";
import { blogScopeWhere, type BlogScope } from "./blog-scope";

export type BlogLocator = { id: string } | { blogSlug: string };

/**
 * One blog as the scope may see it. For an API key, a blog of another account or one without API
 * access does not exist: both are RESOURCE_NOT_FOUND, like an unknown one.
 */
export async function findBlog(db: Db | Prisma.TransactionClient, scope: BlogScope, locator: BlogLocator): Promise<BlogView> {
  const blog = await db.blog.findFirst({
    where: { ...locator, ...blogScopeWhere(scope) },
    select: BLOG_VIEW_COLUMNS,
  });
  if (!blog) throw blogNotFound(locator, scope);
  return toBlogView(blog);
}

/** RESOURCE_NOT_FOUND carries no details (README, The API). */
export function blogNotFound(locator: BlogLocator, scope: BlogScope): DomainError {
  const what = "id" in locator ? `id ${locator.id}` : `slug ${locator.blogSlug}`;
  const where = scope.apiAccessOnly ? "is accessible to this API key" : "exists in your account";
  return new DomainError("RESOURCE_NOT_FOUND", `No blog with ${what} ${where}`);
}

export function slugConflict(blogSlug: string): DomainError {
  return new DomainError("RESOURCE_CONFLICT", "Resource conflict", `A blog with the slug ${blogSlug} already exists`, "blogSlug");
}
