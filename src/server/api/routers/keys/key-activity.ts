import "server-only";
import { z } from "zod";
import { getKeyActivity } from "~/server/usage/key-activity";
import { settlePendingUsageWrites } from "~/server/usage/pending-writes";
import { callerAccount } from "~/server/accounts/caller";
import { ownerProcedure } from "../../trpc";

/** Owner only (ownerProcedure, no OpenAPI meta): one key's usage by outcome and its latest requests. */
export const keyActivityProcedure = ownerProcedure.input(z.object({ id: z.string().min(1) })).query(async ({ ctx, input }) => {
  const accountId = callerAccount(ctx.caller).id;
  await settlePendingUsageWrites(accountId);
  return getKeyActivity(ctx.db, { accountId, keyId: input.id });
});
