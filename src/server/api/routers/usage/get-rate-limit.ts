import { PLAN_HOURLY_LIMITS } from "~/shared/plans";
import { peekAccountRate } from "~/server/ratelimit/account-rate";
import { callerAccount } from "~/server/accounts/caller";
import { procedure } from "../../trpc";

/** Owner only (no permission, no OpenAPI meta): the owner's plan, its hourly limit and the current window (read, not consumed). */
export const getRateLimitProcedure = procedure.query(async ({ ctx }) => {
  const { id, plan } = callerAccount(ctx.caller);
  const state = await peekAccountRate({ accountId: id, plan });
  const hourlyLimit = PLAN_HOURLY_LIMITS[plan];
  const remaining = Math.max(0, Math.min(hourlyLimit, state.remaining));
  return {
    plan,
    hourlyLimit,
    used: hourlyLimit - remaining,
    remaining,
    resetAt: new Date(state.reset).toISOString(),
  };
});
