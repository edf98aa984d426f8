import "server-only";
import type { Db } from "~/server/db";

/**
 * The subscribers a post emailed now would go to: the account's active ones (the newsletter's
 * total counts those confirmed by the moment it starts, blog_newsletter_start).
 */
export function countActiveSubscribers(db: Db, accountId: string): Promise<number> {
  return db.subscriber.count({ where: { userId: accountId, status: "active" } });
}
