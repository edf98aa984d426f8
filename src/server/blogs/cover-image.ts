import "server-only";
import type { Prisma } from "~/generated/prisma/client";
import type { BlogScope } from "~/server/blogs/blog-scope";
import { DomainError } from "~/server/common/domain-error";
import { imagesShownByHiddenBlogs } from "~/server/images/images";

/**
 * A write's `coverImage` (docs/api.md, Writing) as the column's value: absent leaves it alone,
 * null clears it, an id must name an image the caller may see (docs/images.md, Who sees an image):
 * of the blog's account and, for an API key, shown by no blog outside its scope. Any other is
 * refused in the very words of an unknown id, so ids cannot be probed. The image's row is locked
 * (FOR KEY SHARE, as the foreign key's own check does) until the write commits: a concurrent
 * deletion waits, then clears the cover through the foreign key, never failing the write.
 */
export async function coverImageColumn(tx: Prisma.TransactionClient, scope: BlogScope, coverImage: string | null | undefined): Promise<{ coverImageId?: string | null }> {
  if (coverImage === undefined) return {};
  if (coverImage === null) return { coverImageId: null };
  const found = await tx.$queryRaw<unknown[]>`SELECT 1 FROM "image" WHERE "id" = ${coverImage} AND "userId" = ${scope.accountId} FOR KEY SHARE`;
  const outOfScope = scope.apiAccessOnly && (await imagesShownByHiddenBlogs(tx, scope.accountId)).includes(coverImage);
  if (found.length === 0 || outOfScope) {
    throw new DomainError("INVALID_PARAMETER", "Invalid parameter: coverImage", "coverImage must be the id of an image in this account, or null", "coverImage");
  }
  return { coverImageId: coverImage };
}
