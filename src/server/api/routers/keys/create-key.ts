import { z } from "zod";
import { createApiKey } from "~/server/keys/create-api-key";
import { EXPIRATION_OPTIONS } from "~/server/keys/expiration";
import { sessionProcedure } from "../../trpc";

export const createKeyInput = z.object({
  name: z.string(),
  description: z.string().optional(),
  permissions: z.array(z.string()),
  expires: z.enum(EXPIRATION_OPTIONS).default("never"),
});

/** Dashboard: creates a key; the full key is in this answer only (only its hash is stored). */
export const createKeyProcedure = sessionProcedure.input(createKeyInput).mutation(async ({ ctx, input }) => {
  const created = await createApiKey(ctx.db, { accountId: ctx.user.id, ...input });
  return { ...created, expiresAt: created.expiresAt?.toISOString() ?? null };
});
