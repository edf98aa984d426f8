import "server-only";
import type { Db } from "~/server/db";
import { DomainError } from "~/server/common/domain-error";

/**
 * Sends the owner one copy of a post's email, as subscribers would get it (docs/newsletters.md),
 * and answers the address it went to. The email itself is built by the newsletter sending work;
 * until that lands this refuses, sending nothing.
 */
export async function sendNewsletterTest(db: Db, { userId, blogId }: { userId: string; blogId: string }): Promise<{ to: string }> {
  void db;
  void userId;
  void blogId;
  throw new DomainError("RESOURCE_CONFLICT", "Test emails are not available yet");
}
