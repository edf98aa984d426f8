import "server-only";
import { DEFAULT_RANGE_DAYS, getAnalytics, MAX_RANGE_DAYS, resolveAnalyticsRange } from "~/server/usage/analytics";
import { settlePendingUsageWrites } from "~/server/usage/pending-writes";
import { callerAccount } from "~/server/accounts/caller";
import { procedure } from "../../trpc";
import { getAnalyticsInput, getAnalyticsOutput } from "./schemas";

export const getAnalyticsProcedure = procedure
  .meta({
    permission: "read:analytics",
    minRole: "contributor",
    openapi: {
      method: "GET",
      path: "/analytics",
      tags: ["Analytics"],
      summary: "Get API usage analytics",
      description:
        "Requests made with every API key of the caller's account, per UTC day, per key and per endpoint, " +
        "with their outcome (2xx, 4xx, 5xx, 429; requests that failed authentication are not counted). " +
        `Without \`from\` and \`to\`: the last ${DEFAULT_RANGE_DAYS} days ending today (UTC). ` +
        `Only \`to\`: the ${DEFAULT_RANGE_DAYS} days ending on \`to\`. Only \`from\`: from \`from\` through today. ` +
        `Both bounds are inclusive; \`from\` after \`to\`, or a range of more than ${MAX_RANGE_DAYS} days, ` +
        "is 400 INVALID_PARAMETER. Every earlier request is included; this request is counted after it is answered.",
    },
    errors: ["INVALID_PARAMETER"],
  })
  .input(getAnalyticsInput)
  .output(getAnalyticsOutput)
  .query(async ({ ctx, input }) => {
    const range = resolveAnalyticsRange(input);
    // Usage is written after each response: let this process's writes for the account land first.
    const accountId = callerAccount(ctx.caller).id;
    await settlePendingUsageWrites(accountId);
    const data = await getAnalytics({ accountId, ...range });
    return { success: true as const, data };
  });
