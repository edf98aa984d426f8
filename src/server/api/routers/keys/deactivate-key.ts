import "server-only";
import { z } from "zod";
import { deactivateApiKey } from "~/server/keys/deactivate-api-key";
import { callerAccount } from "~/server/accounts/caller";
import { procedure } from "../../trpc";

/** Owner only (no permission, no OpenAPI meta): deactivates one of the owner's keys for good; the next request with it fails. */
export const deactivateKeyProcedure = procedure
  .input(z.object({ id: z.string().min(1) }))
  .mutation(async ({ ctx, input }) => {
    const { id, deactivatedAt } = await deactivateApiKey(ctx.db, { id: input.id, accountId: callerAccount(ctx.caller).id });
    return { id, deactivatedAt: deactivatedAt.toISOString() };
  });
