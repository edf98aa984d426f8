import "server-only";
import { getAnalytics, resolveAnalyticsRange } from "~/server/usage/analytics";
import { settlePendingUsageWrites } from "~/server/usage/pending-writes";
import { callerAccount } from "~/server/accounts/caller";
import { procedure } from "../../trpc";

/** Owner only (no permission, no OpenAPI meta): the data of GET /api/v1/analytics for the last 30 days. */
export const getUsageAnalyticsProcedure = procedure.query(async ({ ctx }) => {
  await settlePendingUsageWrites(callerAccount(ctx.caller).id);
  return getAnalytics(ctx.db, { accountId: callerAccount(ctx.caller).id, ...resolveAnalyticsRange({}) });
});
