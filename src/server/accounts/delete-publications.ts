import "server-only";
import type { Db } from "~/server/db";
import { removeAccountImages } from "~/server/images/images";

/**
 * Deletes the publications `userId` owns, before the person's account goes (docs/teams.md): their
 * images' files first (an S3 bucket has no cascade), then each publication, which takes its
 * blogs, keys, webhooks, subscribers and memberships with it (foreign keys' cascades).
 */
export async function deleteOwnedPublications(db: Db, userId: string): Promise<void> {
  const owned = await db.member.findMany({ where: { userId, role: "owner" }, select: { organizationId: true } });
  for (const { organizationId } of owned) await removeAccountImages(db, organizationId);
  await db.organization.deleteMany({ where: { id: { in: owned.map((m) => m.organizationId) } } });
}
