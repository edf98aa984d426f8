import "server-only";
import type { PoolClient } from "pg";
import { CONFIRMATION_LINK_TTL_MS } from "~/shared/subscribers";

/**
 * Forgets the addresses that never confirmed within their link's 7 days (hourly, with the other
 * maintenance): posted by anyone, they would otherwise hold places of the plan's quota for good.
 */
export async function pruneUnconfirmedSubscribers(client: Pick<PoolClient, "query">): Promise<void> {
  await client.query(
    `DELETE FROM "subscriber" WHERE "status" = 'pending' AND "createdAt" < $1 AND ("confirmationSentAt" IS NULL OR "confirmationSentAt" < $1)`,
    [new Date(Date.now() - CONFIRMATION_LINK_TTL_MS)],
  );
}
