import { getAnalytics, resolveAnalyticsRange } from "~/server/usage/analytics";
import { settlePendingUsageWrites } from "~/server/usage/pending-writes";
import { sessionProcedure } from "../../trpc";

/** Dashboard: the data of GET /api/v1/analytics for the last 30 days. */
export const getUsageAnalyticsProcedure = sessionProcedure.query(async ({ ctx }) => {
  await settlePendingUsageWrites(ctx.user.id);
  return getAnalytics(ctx.db, { accountId: ctx.user.id, ...resolveAnalyticsRange({}) });
});
