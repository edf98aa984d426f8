import "server-only";
import type { Prisma } from "~/generated/prisma/client";
import type { Db } from "~/server/db";
import { DomainError } from "~/server/common/domain-error";
import { BLOG_VIEW_SELECT, type BlogView } from "./blog-view";
import type { BlogScope } from "./blog-scope";

export type BlogLocator = { id: string } | { blogSlug: string };

/**
 * One blog as the scope may see it. For an API key, a blog of another account or one without API
 * access does not exist: both are RESOURCE_NOT_FOUND, like an unknown one.
 */
export async function findBlog(db: Db | Prisma.TransactionClient, scope: BlogScope, locator: BlogLocator): Promise<BlogView> {
  const [column, value] = "id" in locator ? ["id", locator.id] : ["blogSlug", locator.blogSlug];
  const [row] = await db.$queryRawUnsafe<{ blog: BlogView }[]>(
    `SELECT ${BLOG_VIEW_SELECT} FROM "blog" AS b WHERE b."${column}" = $1 AND b."userId" = $2${scope.apiAccessOnly ? ` AND b."allowApiAccess"` : ""}`,
    value,
    scope.accountId,
  );
  if (!row) throw blogNotFound(locator, scope);
  return row.blog;
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
