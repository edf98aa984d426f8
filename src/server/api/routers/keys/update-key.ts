import "server-only";
import { z } from "zod";
import { updateApiKey } from "~/server/keys/update-api-key";
import { callerAccount } from "~/server/accounts/caller";
import { ownerProcedure } from "../../trpc";

/** Owner only (ownerProcedure, no OpenAPI meta): renames a key and/or changes its description. */
export const updateKeyProcedure = ownerProcedure
  .input(z.object({ id: z.string().min(1), name: z.string().optional(), description: z.string().optional() }))
  .mutation(({ ctx, input }) => updateApiKey(ctx.db, { ...input, accountId: callerAccount(ctx.caller).id }));
