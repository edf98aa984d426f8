import "server-only";
import { APIError } from "better-auth/api";
import { requestSession, type HookContext } from "./hook-context";

/** Setting up a second factor, refused until the account's address is confirmed (docs/security.md, Passkeys). */
export async function requireConfirmedEmail(ctx: HookContext): Promise<void> {
  // Signed out: better-auth refuses the setup itself.
  const session = await requestSession(ctx);
  if (session && !session.user.emailVerified) {
    throw new APIError("FORBIDDEN", {
      message: `Confirm your email address before adding a passkey or turning on two-factor sign-in: follow the link emailed to ${session.user.email}`,
      code: "EMAIL_NOT_VERIFIED",
    });
  }
}
