import "server-only";
import { z } from "zod";
import { DEFAULT_RANGE_DAYS } from "~/server/usage/analytics";
import { calendarDateParam } from "../../query-params";

/**
 * The API's contract for analytics: request and response schemas, as the OpenAPI document shows them.
 * The dashboard's usage.analytics takes the same range, with the same rules.
 */

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

const analyticsSchema = z
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
