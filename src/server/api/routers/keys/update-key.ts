import "server-only";
import { z } from "zod";
import { updateApiKey } from "~/server/keys/update-api-key";
import { callerAccount } from "~/server/accounts/caller";
import { assertMayManageKey } from "~/server/keys/key-access";
import { ownerProcedure } from "../../trpc";

/** Dashboard only (ownerProcedure, no OpenAPI meta), for a key the member may manage (src/server/keys/key-access.ts): renames a key and/or changes its description. */
export const updateKeyProcedure = ownerProcedure.meta({ minRole: "author" })
  .input(z.object({ id: z.string().min(1), name: z.string().optional(), description: z.string().optional() }))
  .mutation(async ({ ctx, input }) => {
    const accountId = callerAccount(ctx.caller).id;
    await assertMayManageKey(ctx.db, ctx.caller, accountId, input.id);
    return updateApiKey(ctx.db, { ...input, accountId });
  });
