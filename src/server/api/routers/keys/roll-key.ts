import "server-only";
import { z } from "zod";
import { endKeyGrace, rollApiKey } from "~/server/keys/roll-api-key";
import { callerAccount } from "~/server/accounts/caller";
import { DEFAULT_GRACE, GRACE_OPTIONS } from "~/shared/key-grace";
import { ownerProcedure } from "../../trpc";
import { queueOwnerNotice } from "~/server/email/account-emails";

/**
 * Owner only (ownerProcedure, no OpenAPI meta): replaces an active key by a new one (shown in this
 * answer only); the old one works until the grace ends. The owner is told by email (docs/security.md, Security notices).
 */
export const rollKeyProcedure = ownerProcedure
  .input(z.object({ id: z.string().min(1), grace: z.enum(GRACE_OPTIONS).default(DEFAULT_GRACE) }))
  .mutation(async ({ ctx, input }) => {
    const rolled = await rollApiKey(ctx.db, { ...input, accountId: callerAccount(ctx.caller).id });
    if (ctx.caller.kind === "member") {
      const { name } = await ctx.db.apiKey.findUniqueOrThrow({ where: { id: rolled.id }, select: { name: true } });
      await queueOwnerNotice(ctx.caller.member, ctx.headers, "api-key-rolled", `"${name}"`);
    }
    return { ...rolled, expiresAt: rolled.expiresAt?.toISOString() ?? null, graceEndsAt: rolled.graceEndsAt.toISOString() };
  });

/** Owner only: ends a rolled key's grace now. */
export const endKeyGraceProcedure = ownerProcedure.input(z.object({ id: z.string().min(1) })).mutation(async ({ ctx, input }) => {
  const { id, graceEndsAt } = await endKeyGrace(ctx.db, { id: input.id, accountId: callerAccount(ctx.caller).id });
  return { id, graceEndsAt: graceEndsAt.toISOString() };
});
