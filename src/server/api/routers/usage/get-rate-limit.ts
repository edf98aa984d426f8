import "server-only";
import { peekAccountRate } from "~/server/ratelimit/account-rate";
import { callerAccount } from "~/server/accounts/caller";
import { rateLimitReport } from "../../rate-limit-headers";
import { procedure } from "../../trpc";

/** Owner only (no permission, no OpenAPI meta): the owner's plan, its hourly limit and the current window (read, not consumed). */
export const getRateLimitProcedure = procedure.query(async ({ ctx }) => {
  const { id, plan } = callerAccount(ctx.caller);
  const { limit, used, remaining, reset } = rateLimitReport(await peekAccountRate({ accountId: id, plan }));
  return { plan, hourlyLimit: limit, used, remaining, resetAt: new Date(reset * 1000).toISOString() };
});
