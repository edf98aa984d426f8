import "server-only";
import type { NoticeKind } from "~/server/email/messages";

/** What the app adds to a better-auth endpoint: the guards (src/server/auth/guards.ts) and the door (door.ts) read it. */
export type EndpointPolicy = {
  /** Answers alike for a known and an unknown address, and no sooner than UNIFORM_ANSWER_MS (docs/security.md, No account enumeration). */
  uniformAnswer?: true;
  /** AUTH_ATTEMPTS_PER_MINUTE per client address of its own. The credential checks (a password or a code) share one such budget; the rest have better-auth's 100. */
  ownAttemptBudget?: true;
  /** Body fields the app checks beyond better-auth: a new owner's display name and handle (and no picture), changed ones, a passkey's name. */
  fields?: "new owner" | "owner update" | "passkey name";
  /**
   * Sets up a second factor: refused until the account's address is confirmed. Whoever signed up
   * with an address not theirs could otherwise keep a way in (a passkey), or keep the owner out (an
   * app's codes), after the owner recovers the account by email (docs/security.md, Passkeys).
   */
  secondFactorSetup?: true;
  /** What it does, in the words of its PASSWORD_REQUIRED and CODE_REQUIRED answers. */
  action?: string;
  /**
   * Checks the account's password: better-auth does, or the app before better-auth runs (better-auth
   * checks none for an email change or a passkey, and checks it after the code when turning
   * two-factor sign-in off: a backup code would be used up by a wrong password).
   */
  password?: "checked" | "checked first";
  /** Always takes the password, however fresh the session (better-auth would go ahead without one). */
  passwordRequired?: true;
  /**
   * Checks a second factor's code: better-auth an authenticator app's (each time step taken once)
   * or a backup code, at sign-in or from the settings; or the app, taking either on top of what
   * better-auth asks for, always or while two-factor sign-in is on.
   */
  code?: "authenticator app" | "backup code" | "required" | "required while on";
  /** The security notice its success emails the signed-in owner (docs/security.md, Security notices). */
  notice?: NoticeKind;
  /** May queue an email other than a notice: on Vercel the queue is drained after the answer (docs/security.md, Email). */
  sendsEmail?: true;
  /** Takes this session's authorization to add one passkey (the password and code given to /passkey/authorize-registration). */
  takesPasskeyGrant?: true;
  /** Its options ask the browser to verify the passkey's user, as the app requires (docs/security.md, Passkeys). */
  requestsUserVerification?: true;
  /** Starts a new authenticator secret, which has had no code taken yet. */
  startsTotpSecret?: true;
  /** Removes the account's passkeys once a reset link set its password (docs/security.md, Passkeys). */
  removesPasskeys?: true;
  /** May confirm an email change from the new address: ends the owner's other sessions and tells the old address. */
  confirmsEmailChange?: true;
};

/**
 * The better-auth endpoints the app uses (the sign-up, sign-in and sign-out pages, the session,
 * the account settings with their second factors and sessions, email verification and password
 * reset, joining a publication), with what each gets; every other one answers 404 (docs/security.md, Sign-in).
 */
const AUTH_ENDPOINT_POLICIES: Readonly<Record<string, EndpointPolicy>> = {
  "/sign-up/email": { uniformAnswer: true, ownAttemptBudget: true, fields: "new owner", sendsEmail: true },
  "/sign-in/email": { password: "checked" },
  "/sign-out": {},
  "/get-session": {},
  "/update-user": { fields: "owner update" },
  "/change-email": { action: "change the email", password: "checked first", passwordRequired: true, sendsEmail: true },
  "/change-password": { password: "checked", notice: "password-changed" },
  "/list-sessions": {},
  "/revoke-session": {},
  "/revoke-other-sessions": {},
  "/delete-user": { action: "delete the account", password: "checked", passwordRequired: true },
  "/two-factor/enable": { secondFactorSetup: true, password: "checked", startsTotpSecret: true },
  // Turning two-factor sign-in on is told by its first code: only when it was off.
  "/two-factor/verify-totp": { code: "authenticator app", notice: "two-factor-enabled" },
  "/two-factor/verify-backup-code": { code: "backup code" },
  "/two-factor/generate-backup-codes": { password: "checked", notice: "backup-codes-replaced" },
  "/two-factor/disable": { action: "turn off two-factor sign-in", password: "checked first", code: "required", notice: "two-factor-disabled" },
  "/passkey/authorize-registration": {
    secondFactorSetup: true,
    action: "add a passkey",
    password: "checked first",
    passwordRequired: true,
    code: "required while on",
  },
  "/passkey/generate-register-options": { secondFactorSetup: true, takesPasskeyGrant: true },
  "/passkey/verify-registration": { secondFactorSetup: true, fields: "passkey name", notice: "passkey-added" },
  "/passkey/generate-authenticate-options": { requestsUserVerification: true },
  "/passkey/verify-authentication": {},
  "/passkey/list-user-passkeys": {},
  "/passkey/update-passkey": { fields: "passkey name" },
  "/passkey/delete-passkey": { notice: "passkey-removed" },
  "/verify-email": { sendsEmail: true, confirmsEmailChange: true },
  "/send-verification-email": { ownAttemptBudget: true, sendsEmail: true },
  "/request-password-reset": { uniformAnswer: true, ownAttemptBudget: true, sendsEmail: true },
  "/reset-password": { ownAttemptBudget: true, sendsEmail: true, removesPasskeys: true },
  // Joining a publication from an invitation's page (src/app/invitations/[id]/page.tsx): the only
  // endpoint of the organization plugin open here, as a person in no publication must reach it;
  // every other change to members goes through the members procedures (src/server/auth/organization.ts).
  "/organization/accept-invitation": {},
};

export const AUTH_ENDPOINTS: ReadonlySet<string> = new Set(Object.keys(AUTH_ENDPOINT_POLICIES));

/** The policy of an endpoint the app uses, else undefined. */
export function endpointPolicy(path: string | undefined): EndpointPolicy | undefined {
  return path !== undefined && Object.hasOwn(AUTH_ENDPOINT_POLICIES, path) ? AUTH_ENDPOINT_POLICIES[path] : undefined;
}

/** A hook's matcher: the endpoints whose policy passes `test`. */
export function matchingEndpoints(test: (policy: EndpointPolicy) => unknown): (context: { path?: string }) => boolean {
  return (context) => {
    const policy = endpointPolicy(context.path);
    return policy !== undefined && Boolean(test(policy));
  };
}

/** Checks a password or a code: these share one per-address budget and count against the per-email backoff (docs/security.md, Sign-in). */
export const isCredentialCheck = (policy: EndpointPolicy) => policy.password !== undefined || policy.code !== undefined;

/** Checks a code that is better-auth's own step of a sign-in or setting (not one the app adds). */
export const isCodeStep = (policy: EndpointPolicy) => policy.code === "authenticator app" || policy.code === "backup code";

/** May queue an email, a notice included. */
export const sendsEmail = (policy: EndpointPolicy) => policy.sendsEmail === true || policy.notice !== undefined;

/** The endpoints whose policy passes `test`. */
export function endpointsWhere(test: (policy: EndpointPolicy) => unknown): string[] {
  return Object.entries(AUTH_ENDPOINT_POLICIES)
    .filter(([, policy]) => test(policy))
    .map(([path]) => path);
}
