import type { Db } from "~/server/db";
import { DomainError } from "~/server/domain-error";
import { BLOG_VIEW_COLUMNS, toBlogView, type BlogView } from "./blog-view";

export type BlogLocator = { id: string } | { blogSlug: string };

/**
 * Who is looking: an API key sees only the account's blogs with API access; the owner, in the
 * dashboard, sees all of the account's blogs.
 */
export type BlogScope = "api" | "owner";

/** The rows a scope may touch: always one account's, and for the API only those with API access. */
export function blogScopeWhere(accountId: string, scope: BlogScope) {
  return scope === "api" ? { userId: accountId, allowApiAccess: true } : { userId: accountId };
}

/**
 * One of the account's blogs as the scope may see it. For the API, a blog of another account or
 * one without API access does not exist: both are RESOURCE_NOT_FOUND, like an unknown one.
 */
export async function findBlog(db: Db, accountId: string, locator: BlogLocator, scope: BlogScope = "api"): Promise<BlogView> {
  const blog = await db.blog.findFirst({
    where: { ...locator, ...blogScopeWhere(accountId, scope) },
    select: BLOG_VIEW_COLUMNS,
  });
  if (!blog) throw blogNotFound(locator, scope);
  return toBlogView(blog);
}

/** Spec 7.2: RESOURCE_NOT_FOUND carries no details. */
export function blogNotFound(locator: BlogLocator, scope: BlogScope = "api"): DomainError {
  const what = "id" in locator ? `id ${locator.id}` : `slug ${locator.blogSlug}`;
  const where = scope === "api" ? "is accessible to this API key" : "exists in your account";
  return new DomainError("RESOURCE_NOT_FOUND", `No blog with ${what} ${where}`);
}

export function slugConflict(blogSlug: string): DomainError {
  return new DomainError("RESOURCE_CONFLICT", "Resource conflict", `A blog with the slug ${blogSlug} already exists`);
}
