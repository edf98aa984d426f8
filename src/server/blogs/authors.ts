import "server-only";
import type { Prisma } from "~/generated/prisma/client";
import { DomainError } from "~/server/common/domain-error";
import type { BlogScope } from "./blog-scope";

/**
 * A write's `authors` (docs/api.md, Writing; docs/authors.md, Authors) as the column's value: absent
 * or null leaves it alone (on create: the default, see createBlog), else every id must name a
 * current member of the blog's publication. Their rows are locked (FOR KEY SHARE) until the write
 * commits, so a member removed meanwhile is removed after it, never before.
 */
export async function authorsColumn(tx: Prisma.TransactionClient, scope: BlogScope, authors: string[] | null | undefined): Promise<{ authors?: string[] }> {
  if (authors == null) return {};
  const rows = await tx.$queryRaw<{ userId: string }[]>`SELECT "userId" FROM "member" WHERE "organizationId" = ${scope.accountId} AND "userId" = ANY (${authors}::text[]) FOR KEY SHARE`;
  const members = new Set(rows.map((row) => row.userId));
  const stranger = authors.find((id) => !members.has(id));
  if (stranger !== undefined) {
    throw new DomainError(
      "INVALID_PARAMETER",
      "Invalid parameter: authors",
      `authors must be members of this publication: ${JSON.stringify(stranger.slice(0, 100))} is not one`,
      "authors",
    );
  }
  return { authors };
}
