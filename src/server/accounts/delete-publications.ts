import "server-only";
import type { Db } from "~/server/db";
import { removeAccountImages } from "~/server/images/images";

/**
 * Removes the image files of the publications `userId` owns, before the person's account goes: a
 * trigger on "user" then deletes those publications with everything in them (the
 * person_deletion migration, docs/teams.md), but an S3 bucket has no cascade.
 */
export async function removeOwnedPublicationImages(db: Db, userId: string): Promise<void> {
  const owned = await db.member.findMany({ where: { userId, role: "owner" }, select: { organizationId: true } });
  for (const { organizationId } of owned) await removeAccountImages(db, organizationId);
}
