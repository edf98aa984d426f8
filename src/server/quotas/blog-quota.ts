import "server-only";
import type { Plan } from "~/shared/plans";
import type { Db } from "~/server/db";
import { DomainError } from "~/server/common/domain-error";
import type { Prisma } from "~/generated/prisma/client";
import { underAccountLock } from "./account-lock";
import { QUOTAS } from "./quotas";

export interface BlogQuotaAccount {
  id: string;
  plan: Plan;
}

/**
 * The account's blogs, cheaply: the per-day counters kept by triggers (blogs with API access) plus
 * an index-only count of the blogs hidden from the API. `db` may be a transaction, whose own
 * uncommitted blogs then count too: hence Prisma's raw query here, not the shared pool (src/server/db/index.ts).
 */
export async function countAccountBlogs(db: Pick<Db, "$queryRaw">, accountId: string): Promise<number> {
  const [row] = await db.$queryRaw<{ total: number }[]>`
    SELECT ((SELECT COALESCE(sum("count"), 0) FROM "blog_day_count" WHERE "userId" = ${accountId})
          + (SELECT count(*) FROM "blog" WHERE "userId" = ${accountId} AND "allowApiAccess" = false))::int AS "total"`;
  return row?.total ?? 0;
}

/** Refuses with a conflict naming the quota when the account has its plan's number of blogs. */
export async function assertUnderBlogQuota(db: Pick<Db, "$queryRaw">, account: BlogQuotaAccount): Promise<void> {
  const quota = QUOTAS.blogsPerAccount[account.plan];
  const count = await countAccountBlogs(db, account.id);
  if (count < quota) return;
  throw new DomainError(
    "RESOURCE_CONFLICT",
    "Blog quota reached",
    `The ${account.plan} plan allows ${quota.toLocaleString("en-US")} blogs per account and this account has ` +
      `${count.toLocaleString("en-US")}: delete blogs or move to a larger plan to create more`,
  );
}

/**
 * Runs `create` (one new blog, on the transaction it is given) if the account is under its plan's
 * blog quota, else refuses; under the account's lock, so racing creates on any number of servers
 * cannot pass the same last free place. `db` may be a transaction (an Idempotency-Key's).
 */
export function withinBlogQuota<T>(
  db: Db | Prisma.TransactionClient,
  account: BlogQuotaAccount,
  create: (tx: Prisma.TransactionClient) => Promise<T>,
): Promise<T> {
  return underAccountLock(db, account.id, async (tx) => {
    await assertUnderBlogQuota(tx, account);
    return create(tx);
  });
}
