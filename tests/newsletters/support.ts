import { randomUUID } from "node:crypto";
import type { Db } from "~/server/db";
import { newSubscriberToken } from "~/server/subscribers/tokens";
import type { SubscriberStatus } from "~/shared/subscribers";

/** Subscribers made directly in the database, each with an address of its own; answers their addresses in order. */
export async function seedSubscribers(db: Db, userId: string, statuses: SubscriberStatus[], label = "s"): Promise<string[]> {
  const confirmedAt = new Date(Date.now() - 60_000);
  const rows = statuses.map((status, i) => ({
    userId,
    email: `${label}${i}-${randomUUID()}@example.test`,
    status,
    source: "api" as const,
    confirmedAt: status === "pending" ? null : confirmedAt,
    unsubscribedAt: status === "unsubscribed" ? confirmedAt : null,
    unsubscribeToken: newSubscriberToken(),
  }));
  await db.subscriber.createMany({ data: rows });
  return rows.map((row) => row.email);
}

/** Publishes the blog asking for it to be emailed, as the API's emailSubscribers does: the trigger starts the newsletter. */
export async function publishWithNewsletter(db: Db, blogId: string): Promise<void> {
  await db.blog.update({ where: { id: blogId }, data: { isPublic: true, emailSubscribers: true } });
}

/** Waits until `check` passes (polling), up to `timeoutMs`. */
export async function until(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs / 1000} s: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
