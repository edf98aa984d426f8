import "server-only";
import type { BetterAuthPlugin } from "better-auth";
import { createAuthMiddleware } from "better-auth/api";
import {
  checkAddedCode,
  checkPasswordFirst,
  forgiveEmailOnSuccess,
  refuseTrustedDevice,
  requirePassword,
  takeTotpStepOnce,
  throttleByEmail,
} from "./credential-guards";
import { isCodeStep, isCredentialCheck, matchingEndpoints, type EndpointPolicy } from "./endpoint-policies";
import { checkNewOwnerFields, checkOwnerUpdateFields, checkPasskeyName, refuseUnstorableText } from "./field-guards";
import type { HookContext } from "./hook-context";
import { requestUserVerification, takePasskeyGrant } from "./passkeys";
import { completeEmailChange, findEmailChange, findResetAccount, removePasskeysAfterReset } from "./recovery-guards";
import { requireConfirmedEmail } from "./second-factor-setup";
import { sendSecurityNotice } from "./security-notices";
import { forgetTakenTotpStep } from "./two-factor";

/** A hook running `guard` on the endpoints whose policy (endpoint-policies.ts) passes `test`. */
function on(test: (policy: EndpointPolicy) => unknown, guard: (ctx: HookContext) => unknown) {
  return { matcher: matchingEndpoints(test), handler: createAuthMiddleware(async (ctx) => guard(ctx)) };
}

/**
 * The app's rules around better-auth's endpoints (docs/security.md). better-auth runs the matching
 * hooks in this order, the first refusal answering; the before hooks run before better-auth opens
 * its transaction. The first of the plugins: its after hooks see a right password's session
 * before two-factor sign-in's own hook holds it back for the code.
 */
export const authGuards = {
  id: "blog-manager-guards",
  hooks: {
    before: [
      { matcher: () => true, handler: createAuthMiddleware(async (ctx) => refuseUnstorableText(ctx)) },
      on((p) => p.fields === "new owner", checkNewOwnerFields),
      on((p) => p.fields === "owner update", checkOwnerUpdateFields),
      on((p) => p.secondFactorSetup, requireConfirmedEmail),
      on((p) => p.takesPasskeyGrant, takePasskeyGrant),
      on((p) => p.passwordRequired, requirePassword),
      on(isCodeStep, refuseTrustedDevice),
      on((p) => p.fields === "passkey name", checkPasskeyName),
      on(isCredentialCheck, throttleByEmail),
      on((p) => p.password === "checked first", checkPasswordFirst),
      on((p) => p.code === "required" || p.code === "required while on", checkAddedCode),
      on((p) => p.code === "authenticator app", takeTotpStepOnce),
      on((p) => p.removesPasskeys, findResetAccount),
      on((p) => p.confirmsEmailChange, findEmailChange),
    ],
    after: [
      on((p) => p.confirmsEmailChange, completeEmailChange),
      on((p) => p.removesPasskeys, removePasskeysAfterReset),
      on((p) => p.requestsUserVerification, requestUserVerification),
      on(isCredentialCheck, forgiveEmailOnSuccess),
      on((p) => p.startsTotpSecret, forgetTakenTotpStep),
      on((p) => p.notice, sendSecurityNotice),
    ],
  },
} satisfies BetterAuthPlugin;
