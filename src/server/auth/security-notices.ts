import "server-only";
import { isAPIError } from "better-auth/api";
import { queueNotice } from "~/server/email/account-emails";
import { endpointPolicy } from "./endpoint-policies";
import { emailOrigin, endOtherSessions, type HookContext } from "./hook-context";

/** Emails the signed-in owner the notice of the change just made (docs/security.md, Security notices). */
export async function sendSecurityNotice(ctx: HookContext): Promise<void> {
  const owner = ctx.context.session?.user;
  const notice = endpointPolicy(ctx.path)?.notice;
  if (!owner || !notice || isAPIError(ctx.context.returned)) return;
  if (notice === "two-factor-enabled") {
    // A code confirmed while signed in turns two-factor sign-in on only when it was off (its
    // setup); the session's user is as loaded before the change.
    if (owner.twoFactorEnabled) return;
    // Once sign-in takes a code, no session opened with the password alone stays (as an email change ends them).
    await endOtherSessions(ctx, owner.id, ctx.context.newSession?.session.token);
  }
  const detail = notice === "passkey-added" && typeof ctx.body?.name === "string" ? `"${ctx.body.name.trim()}"` : undefined;
  await queueNotice(owner, emailOrigin(ctx), notice, detail);
}
