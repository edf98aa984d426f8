import "server-only";
import type { Prisma } from "~/generated/prisma/client";
import type { Db } from "~/server/db";
import { DomainError } from "~/server/common/domain-error";
import type { BlogView } from "./blog-view";
import type { BlogScope } from "./blog-scope";
import { findBlog } from "./find-blog";

/**
 * What a conditional write expects of the blog's current state (the API's If-Match, README, The
 * API): true when the blog is still as the writer last read it.
 */
export type BlogPrecondition = (current: BlogView) => boolean;

/**
 * Runs `write` in one transaction after checking `precondition` on the blog, locked (FOR UPDATE)
 * so that no other writer changes it between the check and the write: of two writers that read
 * the same state, the second waits for the first and then sees the new state.
 */
export function writeIfUnchanged<T>(db: Db, scope: BlogScope, id: string, precondition: BlogPrecondition, write: (tx: Prisma.TransactionClient) => Promise<T>): Promise<T> {
  return db.$transaction(async (tx) => {
    await assertPrecondition(tx, scope, id, precondition);
    return write(tx);
  });
}

/** Locks the blog for the rest of the transaction `tx` and checks `precondition` on it (412 when it fails). */
export async function assertPrecondition(tx: Prisma.TransactionClient, scope: BlogScope, id: string, precondition: BlogPrecondition): Promise<void> {
  await tx.$queryRaw`SELECT 1 FROM "blog" WHERE "id" = ${id} FOR UPDATE`;
  if (!precondition(await findBlog(tx, scope, { id }))) {
    throw new DomainError("PRECONDITION_FAILED", "Precondition failed", "The blog has changed since it was read: read it again (its ETag) and retry");
  }
}
