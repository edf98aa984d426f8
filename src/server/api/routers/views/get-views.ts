import "server-only";
import { DEFAULT_RANGE_DAYS, MAX_RANGE_DAYS, resolveAnalyticsRange } from "~/server/usage/analytics";
import { getViews } from "~/server/views/get-views";
import { callerAccount } from "~/server/accounts/caller";
import { procedure } from "../../trpc";
import { getAnalyticsInput } from "../analytics/schemas";
import { getViewsOutput } from "./schemas";

/** GET /api/v1/views, and the dashboard's Readers page (the owner holds read:analytics). */
export const getViewsProcedure = procedure
  .meta({
    permission: "read:analytics",
    minRole: "contributor",
    openapi: {
      method: "GET",
      path: "/views",
      tags: ["Analytics"],
      summary: "Get readers' views",
      description:
        "Views of the account's public pages (posts, the index, tag pages, search) by readers, per UTC day: " +
        "GET requests answered 200 or 304 to a user agent that is not a bot, counted without cookies or script. " +
        "Previews, feeds, sitemaps, images, HEAD requests and bots are not counted. " +
        `The range as in GET /analytics: without \`from\` and \`to\`, the last ${DEFAULT_RANGE_DAYS} days ending today (UTC); ` +
        `\`from\` after \`to\`, or more than ${MAX_RANGE_DAYS} days, is 400 INVALID_PARAMETER.`,
    },
    errors: ["INVALID_PARAMETER"],
  })
  .input(getAnalyticsInput)
  .output(getViewsOutput)
  .query(async ({ ctx, input }) => {
    const range = resolveAnalyticsRange(input);
    const data = await getViews({ accountId: callerAccount(ctx.caller).id, ...range });
    return { success: true as const, data };
  });
