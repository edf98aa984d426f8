import "server-only";
import { getAnalytics, resolveAnalyticsRange } from "~/server/usage/analytics";
import { settlePendingUsageWrites } from "~/server/usage/pending-writes";
import { callerAccount } from "~/server/accounts/caller";
import { ownerProcedure } from "../../trpc";
import { getAnalyticsInput } from "../analytics/schemas";

/**
 * Owner only (ownerProcedure, no OpenAPI meta): the data of GET /api/v1/analytics, with the same
 * from/to rules (the last 30 days without them).
 */
export const getUsageAnalyticsProcedure = ownerProcedure.meta({ minRole: "administrator" }).input(getAnalyticsInput.optional()).query(async ({ ctx, input }) => {
  const range = resolveAnalyticsRange(input ?? {});
  await settlePendingUsageWrites(callerAccount(ctx.caller).id);
  return getAnalytics({ accountId: callerAccount(ctx.caller).id, ...range });
});
