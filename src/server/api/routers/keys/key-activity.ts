import "server-only";
import { z } from "zod";
import { getKeyActivity } from "~/server/usage/key-activity";
import { settlePendingUsageWrites } from "~/server/usage/pending-writes";
import { callerAccount } from "~/server/accounts/caller";
import { assertMayManageKey } from "~/server/keys/key-access";
import { ownerProcedure } from "../../trpc";

/** Dashboard only (ownerProcedure, no OpenAPI meta), for a key the member may manage (src/server/keys/key-access.ts): its usage by outcome and its latest requests. */
export const keyActivityProcedure = ownerProcedure.meta({ minRole: "author" }).input(z.object({ id: z.string().min(1) })).query(async ({ ctx, input }) => {
  const accountId = callerAccount(ctx.caller).id;
  await assertMayManageKey(ctx.db, ctx.caller, accountId, input.id);
  await settlePendingUsageWrites(accountId);
  return getKeyActivity(ctx.db, { accountId, keyId: input.id });
});
