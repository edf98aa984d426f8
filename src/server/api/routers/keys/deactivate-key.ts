import { z } from "zod";
import { deactivateApiKey } from "~/server/keys/deactivate-api-key";
import { sessionProcedure } from "../../trpc";

/** Dashboard: deactivates one of the owner's keys for good; the next request with it fails. */
export const deactivateKeyProcedure = sessionProcedure
  .input(z.object({ id: z.string().min(1) }))
  .mutation(async ({ ctx, input }) => {
    const { id, deactivatedAt } = await deactivateApiKey(ctx.db, { id: input.id, accountId: ctx.user.id });
    return { id, deactivatedAt: deactivatedAt.toISOString() };
  });
