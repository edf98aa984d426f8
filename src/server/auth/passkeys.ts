import "server-only";
import { passkey } from "@better-auth/passkey";
import type { BetterAuthPlugin } from "better-auth";
import { APIError, createAuthEndpoint, isAPIError, sessionMiddleware } from "better-auth/api";
import * as z from "zod";
import { requestSession, type HookContext } from "./hook-context";

/** How long adding a passkey may take once the password (and code) authorized it: the browser's prompt, then its answer. */
const PASSKEY_REGISTRATION_GRANT_SECONDS = 5 * 60;

/** The verification row of a session's authorization to add one passkey. */
const passkeyRegistrationGrant = (sessionId: string) => `passkey-registration-grant:${sessionId}`;

/**
 * Adding a passkey, first step: the password, and a code while two-factor sign-in is on (checked
 * by the guards, like the other account settings), authorize this session to ask for one
 * registration challenge within PASSKEY_REGISTRATION_GRANT_SECONDS. Checked before the browser
 * makes a credential: a refused password leaves none behind on the owner's device.
 */
export const passkeyRegistrationAuthorization = {
  id: "passkey-registration-authorization",
  endpoints: {
    authorizePasskeyRegistration: createAuthEndpoint(
      "/passkey/authorize-registration",
      { method: "POST", use: [sessionMiddleware], body: z.object({ password: z.string(), code: z.string().optional() }) },
      async (ctx) => {
        const { session } = ctx.context.session;
        await ctx.context.internalAdapter.createVerificationValue({
          identifier: passkeyRegistrationGrant(session.id),
          value: session.userId,
          expiresAt: new Date(Date.now() + PASSKEY_REGISTRATION_GRANT_SECONDS * 1000),
        });
        return ctx.json({ status: true });
      },
    ),
  },
} satisfies BetterAuthPlugin;

/** A registration challenge only for a session the password (and code) just authorized, once. */
export async function takePasskeyGrant(ctx: HookContext): Promise<void> {
  const session = await requestSession(ctx);
  if (!session) return;
  const grant = await ctx.context.internalAdapter.consumeVerificationValue(passkeyRegistrationGrant(session.session.id));
  if (!grant || grant.expiresAt < new Date()) {
    throw new APIError("FORBIDDEN", { message: "Confirm your password (and a code) before adding a passkey", code: "PASSKEY_NOT_AUTHORIZED" });
  }
}

/** A passkey's authenticator must have verified its user (flag UV), not only seen one present. */
function assertUserVerified(userVerified: boolean | undefined): void {
  if (!userVerified) {
    throw new APIError("UNAUTHORIZED", { message: "The passkey did not verify its user (fingerprint, face or PIN)", code: "USER_NOT_VERIFIED" });
  }
}

/**
 * The relying party is the app's origin of each request (baseURL unset: the request's; the
 * browser's Origin, checked equal to it by handleAuthRequest): its hostname is the RP ID, so
 * passkeys work at a domain name (localhost included), never at an IP address
 * (docs/security.md, Passkeys). Discoverable credentials: sign-in asks for no email.
 * The authenticator must verify its user (fingerprint, face, PIN), not only see someone
 * present: a passkey stands for a password and a second factor at once. better-auth's
 * plugin accepts either; these refuse a response whose flags lack the verification.
 */
export const passkeyPlugin = passkey({
  rpName: "Blog Manager",
  authenticatorSelection: { residentKey: "required", userVerification: "required" },
  registration: { afterVerification: ({ verification }) => assertUserVerified(verification.registrationInfo?.userVerified) },
  authentication: { afterVerification: ({ verification }) => assertUserVerified(verification.authenticationInfo.userVerified) },
});

/** better-auth's sign-in options only prefer the verification: browsers are asked for it. */
export function requestUserVerification(ctx: HookContext) {
  if (isAPIError(ctx.context.returned)) return;
  return ctx.json({ ...(ctx.context.returned as object), userVerification: "required" });
}
