import "server-only";
import type { Prisma } from "~/generated/prisma/client";
import { inTransaction, type Db } from "~/server/db";

/** Prisma's limits for a transaction holding the lock: an account's racing creates wait their turn in it. */
const TRANSACTION_OPTIONS = { maxWait: 10_000, timeout: 30_000 };

/**
 * Runs `work` in a transaction (the one `db` is, or a new one) holding the account's row lock until
 * it ends. A quota check and the create it allows then run one after the other per account, on any
 * number of server instances (docs/security.md, Quotas): racing creates cannot pass the same last
 * free place. NO KEY UPDATE: rows referencing the account (its blogs, keys, usage) are still written
 * meanwhile by other transactions.
 */
export function underAccountLock<T>(db: Db | Prisma.TransactionClient, accountId: string, work: (tx: Prisma.TransactionClient) => Promise<T>): Promise<T> {
  return inTransaction(
    db,
    async (tx) => {
      await tx.$queryRaw`SELECT 1 FROM "organization" WHERE "id" = ${accountId} FOR NO KEY UPDATE`;
      return work(tx);
    },
    TRANSACTION_OPTIONS,
  );
}
