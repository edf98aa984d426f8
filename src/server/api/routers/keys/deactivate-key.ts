import "server-only";
import { z } from "zod";
import { deactivateApiKey } from "~/server/keys/deactivate-api-key";
import { callerAccount } from "~/server/accounts/caller";
import { ownerProcedure } from "../../trpc";

/** Owner only (ownerProcedure, no OpenAPI meta): deactivates one of the owner's keys for good; the next request with it fails. */
export const deactivateKeyProcedure = ownerProcedure
  .input(z.object({ id: z.string().min(1) }))
  .mutation(async ({ ctx, input }) => {
    const { id, deactivatedAt } = await deactivateApiKey(ctx.db, { id: input.id, accountId: callerAccount(ctx.caller).id });
    return { id, deactivatedAt: deactivatedAt.toISOString() };
  });
