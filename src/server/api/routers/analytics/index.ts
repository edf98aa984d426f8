import "server-only";
import { createTRPCRouter } from "../../trpc";
import { getAnalyticsProcedure } from "./get-analytics";

export const analyticsRouter = createTRPCRouter({
  get: getAnalyticsProcedure,
});
