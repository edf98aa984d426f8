import "server-only";
import { z } from "zod";
import { endKeyGrace, rollApiKey } from "~/server/keys/roll-api-key";
import { callerAccount, callerUserId } from "~/server/accounts/caller";
import { assertMayManageKey } from "~/server/keys/key-access";
import { DEFAULT_GRACE, GRACE_OPTIONS } from "~/shared/key-grace";
import { ownerProcedure } from "../../trpc";
import { queueOwnerNotice } from "~/server/email/account-emails";

/**
 * Dashboard only (ownerProcedure, no OpenAPI meta), for a key the member may manage and give the
 * permissions of (src/server/keys/key-access.ts): replaces an active key by a new one, recorded as
 * the member's (shown in this answer only); the old one works until the grace ends. The owner is told by email (docs/security.md, Security notices).
 */
export const rollKeyProcedure = ownerProcedure.meta({ minRole: "author" })
  .input(z.object({ id: z.string().min(1), grace: z.enum(GRACE_OPTIONS).default(DEFAULT_GRACE) }))
  .mutation(async ({ ctx, input }) => {
    const accountId = callerAccount(ctx.caller).id;
    await assertMayManageKey(ctx.db, ctx.caller, accountId, input.id, { rolling: true });
    const rolled = await rollApiKey(ctx.db, { ...input, accountId, createdById: callerUserId(ctx.caller) });
    if (ctx.caller.kind === "member") {
      const { name } = await ctx.db.apiKey.findUniqueOrThrow({ where: { id: rolled.id }, select: { name: true } });
      await queueOwnerNotice(ctx.caller.member, ctx.headers, "api-key-rolled", `"${name}"`);
    }
    return { ...rolled, expiresAt: rolled.expiresAt?.toISOString() ?? null, graceEndsAt: rolled.graceEndsAt.toISOString() };
  });

/** Owner only: ends a rolled key's grace now. */
export const endKeyGraceProcedure = ownerProcedure.meta({ minRole: "author" }).input(z.object({ id: z.string().min(1) })).mutation(async ({ ctx, input }) => {
  const accountId = callerAccount(ctx.caller).id;
  await assertMayManageKey(ctx.db, ctx.caller, accountId, input.id);
  const { id, graceEndsAt } = await endKeyGrace(ctx.db, { id: input.id, accountId });
  return { id, graceEndsAt: graceEndsAt.toISOString() };
});
