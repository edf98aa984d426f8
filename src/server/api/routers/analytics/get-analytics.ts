import "server-only";
import { z } from "zod";
import { DEFAULT_RANGE_DAYS, getAnalytics, MAX_RANGE_DAYS, resolveAnalyticsRange } from "~/server/usage/analytics";
import { settlePendingUsageWrites } from "~/server/usage/pending-writes";
import { calendarDateParam } from "../../query-params";
import { callerAccount } from "~/server/accounts/caller";
import { procedure } from "../../trpc";

/** The API's contract for analytics: request and response schemas, as the OpenAPI document shows them. */

/** A UTC day, YYYY-MM-DD (always produced by formatCalendarDate). */
const dateSchema = z.string().meta({ format: "date", example: "2026-01-31" });

const usageCounts = {
  requests: z.int().min(0).meta({ description: "All requests: succeeded + notModified + clientErrors + serverErrors + rateLimited" }),
  succeeded: z.int().min(0).meta({ description: "Requests answered with a 2xx status" }),
  notModified: z.int().min(0).meta({ description: "Conditional GETs answered 304 Not Modified (they do not consume the rate limit)" }),
  clientErrors: z.int().min(0).meta({ description: "Requests answered with a 4xx status other than 429" }),
  serverErrors: z.int().min(0).meta({ description: "Requests answered with a 5xx status" }),
  rateLimited: z.int().min(0).meta({ description: "Requests refused with 429 RATE_LIMIT_EXCEEDED" }),
};

export const analyticsSchema = z
  .object({
    from: dateSchema.meta({ description: "First day of the range (UTC, inclusive)" }),
    to: dateSchema.meta({ description: "Last day of the range (UTC, inclusive)" }),
    totals: z.object(usageCounts).meta({ description: "Sums over the whole range" }),
    daily: z
      .array(z.object({ date: dateSchema.meta({ description: "The UTC day" }), ...usageCounts }))
      .meta({ description: "One entry per day of the range, ascending, days without requests included as zeros" }),
    byKey: z
      .array(
        z.object({
          keyId: z.string().meta({ description: "Identifier of the API key" }),
          name: z.string().meta({ description: "Name of the API key" }),
          requests: z.int().min(0).meta({ description: "Requests made with the key in the range" }),
        }),
      )
      .meta({ description: "The account's keys that made requests in the range, most requests first" }),
    byEndpoint: z
      .array(
        z.object({
          method: z.string().meta({ description: "HTTP method, e.g. GET" }),
          path: z.string().meta({ description: "Route template under /api/v1, e.g. /blogs or /blogs/{id}" }),
          requests: z.int().min(0).meta({ description: "Requests made to the endpoint in the range" }),
        }),
      )
      .meta({ description: "Endpoints that received requests in the range, most requests first" }),
  })
  .meta({ id: "Analytics", description: "API usage of the caller's account (all of its keys) over whole UTC days" });

export const getAnalyticsInput = z.object({
  from: calendarDateParam("from").meta({
    description: `First UTC day of the range (YYYY-MM-DD, inclusive); default: ${DEFAULT_RANGE_DAYS - 1} days before \`to\``,
  }),
  to: calendarDateParam("to").meta({ description: "Last UTC day of the range (YYYY-MM-DD, inclusive); default: today (UTC)" }),
});

export const getAnalyticsOutput = z.object({ success: z.literal(true), data: analyticsSchema });

export const getAnalyticsProcedure = procedure
  .meta({
    permission: "read:analytics",
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
