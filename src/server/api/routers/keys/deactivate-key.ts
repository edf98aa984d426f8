import "server-only";
import { z } from "zod";
import { deactivateApiKey } from "~/server/keys/deactivate-api-key";
import { callerAccount } from "~/server/accounts/caller";
import { assertMayManageKey } from "~/server/keys/key-access";
import { ownerProcedure } from "../../trpc";

/** Dashboard only (ownerProcedure, no OpenAPI meta), for a key the member may manage (src/server/keys/key-access.ts): deactivates it for good; the next request with it fails. */
export const deactivateKeyProcedure = ownerProcedure.meta({ minRole: "author" })
  .input(z.object({ id: z.string().min(1) }))
  .mutation(async ({ ctx, input }) => {
    const accountId = callerAccount(ctx.caller).id;
    await assertMayManageKey(ctx.db, ctx.caller, accountId, input.id);
    const { id, deactivatedAt } = await deactivateApiKey(ctx.db, { id: input.id, accountId });
    return { id, deactivatedAt: deactivatedAt.toISOString() };
  });
