import "server-only";
import type { Prisma } from "~/generated/prisma/client";
import type { Db } from "~/server/db";
import { DomainError } from "~/server/common/domain-error";
import { isUniqueViolation } from "~/server/db/prisma-errors";
import { authorsColumn } from "./authors";
import { readBlogViews, type BlogView } from "./blog-view";
import { blogScopeWhere, type BlogScope } from "./blog-scope";
import { assertPrecondition, type BlogPrecondition } from "./blog-precondition";
import { writeAs, type ChangeSource } from "./change-source";
import { coverImageColumn } from "./cover-image";
import type { NewBlog } from "./create-blog";
import { blogNotFound, slugConflict } from "./find-blog";

/** What may change: every field; allowApiAccess only by the owner (the caller decides, see blog-scope.ts). */
export type BlogChanges = Partial<NewBlog> & { allowApiAccess?: boolean };

/**
 * Changes the given fields of one blog the scope may see; updatedAt advances. With a
 * precondition, only if the blog still meets it, checked and written in one transaction, which
 * also names `source` for the revision the change may record.
 */
export async function updateBlog(
  db: Db,
  scope: BlogScope,
  id: string,
  changes: BlogChanges,
  { precondition, source }: { precondition?: BlogPrecondition; source: ChangeSource },
): Promise<BlogView> {
  try {
    return await writeAs(db, source, async (tx) => {
      if (precondition) await assertPrecondition(tx, scope, id, precondition);
      if (changes.emailSubscribers !== undefined) await assertEmailChoiceOpen(tx, scope, id, changes.emailSubscribers);
      const { coverImage, authors, ...fields } = changes;
      const cover = await coverImageColumn(tx, scope, coverImage);
      const byline = await authorsColumn(tx, scope, authors);
      const { count } = await tx.blog.updateMany({ where: { id, ...blogScopeWhere(scope) }, data: { ...fields, ...cover, ...byline } });
      if (count === 0) throw blogNotFound({ id }, scope);
      const [blog] = await readBlogViews(tx, [id]);
      // Public stays public (the database clears publishAt then): a schedule needs isPublic false with it.
      if (changes.publishAt && changes.isPublic === undefined && blog!.isPublic) throw scheduleOfPublicBlog();
      return blog!;
    });
  } catch (error) {
    if (isUniqueViolation(error) && changes.blogSlug !== undefined) throw slugConflict(changes.blogSlug);
    throw error;
  }
}

/**
 * emailSubscribers is writable until sent (docs/newsletters.md, Emailing a post): once the blog has
 * been public (the email, if asked for, went then) or emailed, a change is refused; the current
 * value sent back is not a change. The row is locked so a publication cannot slip in between.
 */
async function assertEmailChoiceOpen(tx: Prisma.TransactionClient, scope: BlogScope, id: string, wanted: boolean): Promise<void> {
  const [blog] = await tx.$queryRawUnsafe<{ emailSubscribers: boolean; publishedAt: Date | null; emailedAt: Date | null }[]>(
    `SELECT "emailSubscribers", "publishedAt", "emailedAt" FROM "blog" WHERE "id" = $1 AND "userId" = $2${scope.apiAccessOnly ? ` AND "allowApiAccess"` : ""} FOR UPDATE`,
    id,
    scope.accountId,
  );
  // An unknown blog is the update's own RESOURCE_NOT_FOUND.
  if (!blog || blog.emailSubscribers === wanted || (!blog.publishedAt && !blog.emailedAt)) return;
  throw new DomainError(
    "INVALID_PARAMETER",
    "Invalid parameter: emailSubscribers",
    blog.emailedAt
      ? "emailSubscribers can no longer change: the blog has already been emailed to subscribers"
      : "emailSubscribers can no longer change: the blog has already been published (a post is emailed only when it first becomes public)",
    "emailSubscribers",
  );
}

function scheduleOfPublicBlog(): DomainError {
  return new DomainError(
    "INVALID_PARAMETER",
    "Invalid parameter: publishAt",
    "publishAt can only be set on a blog that is not public: send isPublic: false with it to unpublish and schedule",
    "publishAt",
  );
}
