import { PLAN_HOURLY_LIMITS } from "~/shared/plans";
import { peekAccountRate } from "../../middleware/rate-limit";
import { sessionProcedure } from "../../trpc";

/** Dashboard: the owner's plan, its hourly limit and the current window (read, not consumed). */
export const getRateLimitProcedure = sessionProcedure.query(async ({ ctx }) => {
  const state = await peekAccountRate({ accountId: ctx.user.id, plan: ctx.user.plan });
  const hourlyLimit = PLAN_HOURLY_LIMITS[ctx.user.plan];
  const remaining = Math.max(0, Math.min(hourlyLimit, state.remaining));
  return {
    plan: ctx.user.plan,
    hourlyLimit,
    used: hourlyLimit - remaining,
    remaining,
    resetAt: new Date(state.reset).toISOString(),
  };
});
