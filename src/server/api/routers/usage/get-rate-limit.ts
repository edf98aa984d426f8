import "server-only";
import { peekAccountRate } from "~/server/ratelimit/account-rate";
import { callerAccount } from "~/server/accounts/caller";
import { rateLimitedToday } from "~/server/usage/analytics";
import { settlePendingUsageWrites } from "~/server/usage/pending-writes";
import { rateLimitReport } from "../../rate-limit-headers";
import { ownerProcedure } from "../../trpc";

/**
 * Owner only (ownerProcedure, no OpenAPI meta): the owner's plan, its hourly limit and the current
 * window (read, not consumed), and how many requests were refused with 429 today (UTC).
 */
export const getRateLimitProcedure = ownerProcedure.meta({ minRole: "administrator" }).query(async ({ ctx }) => {
  const { id, plan } = callerAccount(ctx.caller);
  await settlePendingUsageWrites(id);
  const [state, refusedToday] = await Promise.all([peekAccountRate({ accountId: id, plan }), rateLimitedToday(ctx.db, id)]);
  const { limit, used, remaining, reset } = rateLimitReport(state);
  return { plan, hourlyLimit: limit, used, remaining, resetAt: new Date(reset * 1000).toISOString(), rateLimitedToday: refusedToday };
});
