import "server-only";
import { APIError, isAPIError } from "better-auth/api";
import { getDb } from "~/server/db";
import { queueNotice, verificationTokenClaims } from "~/server/email/account-emails";
import { emailOrigin, endOtherSessions, requestSession, type HookContext } from "./hook-context";

/** The account a password reset link belongs to, as its before guard found it (keyed by the request). */
const passwordResets = new WeakMap<Request, { userId: string }>();

/** An email change being confirmed from the new address, as its before guard found it (keyed by the request). */
const emailChangeConfirmations = new WeakMap<Request, { userId: string; oldEmail: string; newEmail: string; sessionToken?: string }>();

/** The account of a password reset link, for the after guard to remove its passkeys. */
export async function findResetAccount(ctx: HookContext): Promise<void> {
  const resetToken = ctx.body?.token ?? ctx.query?.token;
  if (!ctx.request || typeof resetToken !== "string") return;
  const link = await ctx.context.internalAdapter.findVerificationValue(`reset-password:${resetToken}`);
  if (link) passwordResets.set(ctx.request, { userId: link.value });
}

/**
 * A password reset by email leaves no passkey behind: one made by whoever held the account
 * before would outlive the recovery (docs/security.md, Passkeys).
 */
export async function removePasskeysAfterReset(ctx: HookContext): Promise<void> {
  const reset = ctx.request && passwordResets.get(ctx.request);
  if (!reset || isAPIError(ctx.context.returned)) return;
  const db = getDb();
  const { count } = await db.passkey.deleteMany({ where: { userId: reset.userId } });
  const owner = count > 0 ? await db.user.findUnique({ where: { id: reset.userId }, select: { email: true, name: true, emailVerified: true } }) : null;
  const removed = count === 1 ? "1 passkey" : `${count} passkeys`;
  if (owner) await queueNotice(owner, emailOrigin(ctx), "passkeys-removed", `${removed}, because the password was reset by the emailed link. Once signed in, add yours again from the account page.`);
}

/** The link of an email change, followed from the new address: what it changes, if it still can. */
export async function findEmailChange(ctx: HookContext): Promise<void> {
  if (!ctx.request) return;
  const claims = verificationTokenClaims(ctx.query?.token);
  if (claims?.requestType !== "change-email-verification" || !claims.userId || !claims.updateTo) return;
  const db = getDb();
  const owner = await db.user.findUnique({ where: { id: claims.userId }, select: { email: true } });
  if (owner?.email !== claims.email) return;
  // A link asked for before the password last changed changes nothing: after a reset by
  // the address's owner, whoever held the account before must not take it away with one.
  const { iat } = claims as { iat?: number };
  const password = await db.account.findFirst({ where: { userId: claims.userId, providerId: "credential" }, select: { updatedAt: true } });
  // The token's time is in whole seconds: a password set earlier in the same second (the
  // account's creation, just before) is not a later change.
  if (password && Math.floor(password.updatedAt.getTime() / 1000) > (iat ?? 0)) {
    throw new APIError("BAD_REQUEST", { message: "This link was made before the account's password last changed: ask for the change again", code: "INVALID_TOKEN" });
  }
  const session = await requestSession(ctx);
  emailChangeConfirmations.set(ctx.request, {
    userId: claims.userId,
    oldEmail: claims.email,
    newEmail: claims.updateTo,
    sessionToken: session?.user.id === claims.userId ? session.session.token : undefined,
  });
}

/** Once the new address is the account's: whoever held another session of the owner's loses it with the old address, which is told. */
export async function completeEmailChange(ctx: HookContext): Promise<void> {
  const confirmation = ctx.request && emailChangeConfirmations.get(ctx.request);
  if (!confirmation) return;
  const owner = await getDb().user.findUnique({ where: { id: confirmation.userId }, select: { email: true, name: true, emailVerified: true } });
  if (owner?.email !== confirmation.newEmail) return;
  await endOtherSessions(ctx, confirmation.userId, confirmation.sessionToken);
  // better-auth keeps emailVerified through the change: it still tells whether the old address was proven.
  await queueNotice({ email: confirmation.oldEmail, name: owner.name, emailVerified: owner.emailVerified }, emailOrigin(ctx), "email-changed", `it is now ${confirmation.newEmail}`);
}
