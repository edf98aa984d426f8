import "server-only";
import type { Db } from "~/server/db";
import { DomainError } from "~/server/common/domain-error";
import type { Prisma } from "~/generated/prisma/client";
import { underAccountLock } from "./account-lock";
import { QUOTAS } from "./quotas";

/**
 * Keys that still authenticate and are not being replaced: neither deactivated, expired nor rolled
 * (a rolled key in its grace has its replacement counted instead).
 */
export function countActiveKeys(db: Db | Prisma.TransactionClient, accountId: string, now = new Date()): Promise<number> {
  return db.apiKey.count({
    where: { userId: accountId, deactivatedAt: null, rolledAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] },
  });
}

/**
 * Runs `create` (one new key) if the account has fewer active keys than the quota, else refuses
 * with a conflict naming the quota. `create` runs on the transaction it is given, under the account's
 * lock: checks and creates of one account run one at a time on any number of servers.
 */
export function withinActiveKeyQuota<T>(db: Db, accountId: string, create: (tx: Prisma.TransactionClient) => Promise<T>): Promise<T> {
  return underAccountLock(db, accountId, async (tx) => {
    const quota = QUOTAS.activeKeysPerAccount;
    if ((await countActiveKeys(tx, accountId)) >= quota) {
      throw new DomainError(
        "RESOURCE_CONFLICT",
        "API key quota reached",
        `An account may have at most ${quota} active API keys: deactivate keys it no longer uses to create more`,
      );
    }
    return create(tx);
  });
}
