import "server-only";
import { z } from "zod";
import { createApiKey } from "~/server/keys/create-api-key";
import { EXPIRATION_OPTIONS } from "~/shared/key-expiration";
import { PERMISSIONS } from "~/shared/permissions";
import { withinActiveKeyQuota } from "~/server/quotas/key-quota";
import { callerAccount, callerUserId } from "~/server/accounts/caller";
import { assertMayGiveKeyPermissions } from "~/server/keys/key-access";
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
 * Dashboard only (ownerProcedure, no OpenAPI meta), once the member's address is confirmed: creates a
 * key with permissions the member's role has, recorded as theirs (docs/teams.md, Keys), within the
 * publication's active-key quota; the full key is in this answer only (only its hash is
 * stored). The owner is told by email (docs/security.md, Security notices).
 */
export const createKeyProcedure = ownerProcedure.meta({ minRole: "author" }).input(createKeyInput).mutation(async ({ ctx, input }) => {
  requireVerifiedEmail(ctx.caller);
  assertMayGiveKeyPermissions(ctx.caller, input.permissions);
  const accountId = callerAccount(ctx.caller).id;
  const createdById = callerUserId(ctx.caller);
  const created = await withinActiveKeyQuota(ctx.db, accountId, (tx) => createApiKey(tx, { accountId, ...input, createdById }));
  if (ctx.caller.kind === "member") await queueOwnerNotice(ctx.caller.member, ctx.headers, "api-key-created", `"${input.name.trim()}"`);
  return { ...created, expiresAt: created.expiresAt?.toISOString() ?? null };
});
