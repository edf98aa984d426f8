import "server-only";
import { z } from "zod";
import { createApiKey } from "~/server/keys/create-api-key";
import { EXPIRATION_OPTIONS } from "~/shared/key-expiration";
import { PERMISSIONS } from "~/shared/permissions";
import { withinActiveKeyQuota } from "~/server/quotas/key-quota";
import { callerAccount } from "~/server/accounts/caller";
import { ownerProcedure } from "../../trpc";
import { requireVerifiedEmail } from "../../require-verified-email";
import { queueOwnerNotice } from "~/server/email/account-emails";

export const createKeyInput = z.object({
  name: z.string(),
  description: z.string().optional(),
  // There are only so many permissions: a longer list is refused before it reaches the rules.
  permissions: z.array(z.string()).max(PERMISSIONS.length, { error: `at most ${PERMISSIONS.length} permissions` }),
  expires: z.enum(EXPIRATION_OPTIONS).default("never"),
});

/**
 * Owner only (ownerProcedure, no OpenAPI meta), once the owner's address is confirmed: creates a key
 * within the account's active-key quota; the full key is in this answer only (only its hash is
 * stored). The owner is told by email (docs/security.md, Security notices).
 */
export const createKeyProcedure = ownerProcedure.input(createKeyInput).mutation(async ({ ctx, input }) => {
  requireVerifiedEmail(ctx.caller);
  const accountId = callerAccount(ctx.caller).id;
  const created = await withinActiveKeyQuota(ctx.db, accountId, (tx) => createApiKey(tx, { accountId, ...input }));
  if (ctx.caller.kind === "member") await queueOwnerNotice(ctx.caller.member, ctx.headers, "api-key-created", `"${input.name.trim()}"`);
  return { ...created, expiresAt: created.expiresAt?.toISOString() ?? null };
});
