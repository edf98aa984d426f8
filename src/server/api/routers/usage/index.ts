import "server-only";
import { createTRPCRouter } from "../../trpc";
import { getUsageAnalyticsProcedure } from "./get-usage-analytics";
import { getRateLimitProcedure } from "./get-rate-limit";

/** API usage, for its owner in the dashboard (the API's own is GET /api/v1/analytics). */
export const usageRouter = createTRPCRouter({
  rateLimit: getRateLimitProcedure,
  analytics: getUsageAnalyticsProcedure,
});
