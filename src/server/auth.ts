import "server-only";
/**
 * Accounts in the browser: better-auth with email and password, an authenticator app's codes as a
 * second factor, passkeys, sessions in PostgreSQL (the user/session/account/verification/twoFactor/
 * passkey tables of prisma/schema.prisma). Created on first use, so that importing this module
 * (e.g. while Next builds) needs no database.
 */
import { passkey } from "@better-auth/passkey";
import { betterAuth, type BetterAuthPlugin } from "better-auth";
import { prismaAdapter } from "better-auth/adapters/prisma";
import { APIError, createAuthEndpoint, createAuthMiddleware, getSessionFromCtx, isAPIError, sessionMiddleware } from "better-auth/api";
import { constantTimeEqual, symmetricDecrypt } from "better-auth/crypto";
import { twoFactor } from "better-auth/plugins";
import { createOTP } from "@better-auth/utils/otp";
import { createHash } from "node:crypto";
import * as z from "zod";
import { env } from "~/env";
import { log } from "~/server/log";
import { getDb } from "~/server/db";
import { DISPLAY_NAME_RULE, displayNameProblem } from "~/shared/display-name";
import { handleProblem } from "~/shared/handle";
import { PASSKEY_NAME_MAX_LENGTH } from "~/shared/passkey-name";
import { findUnstorableText } from "~/shared/storable-text";
import { PLANS, type Plan } from "~/shared/plans";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "~/shared/account-credentials";
import { toApiError } from "~/server/api/errors";
import { clientIpOfWebRequest } from "~/server/http/client-ip";
import { configuredOrigin, requestOrigin } from "~/server/http/public-origin";
import { crossOriginRefusal } from "~/server/http/same-origin-request";
import { API_SECURITY_HEADERS } from "~/server/http/security-headers";
import { sharedStoreClient } from "~/server/ratelimit";
import { configuredRateLimiter, configuredStore } from "~/server/ratelimit/configured";
import { createBackoff, type Backoff, type BackoffPolicy } from "~/server/ratelimit/backoff";
import { removeAccountImages } from "~/server/images/images";
import { sendQueuedEmailsOnVercel } from "~/server/email/queue-email";
import type { NoticeKind } from "~/server/email/messages";
import {
  passwordWasReset,
  queueAccountExistsEmail,
  queueNotice,
  queuePasswordResetEmail,
  queueVerificationEmail,
  verificationTokenClaims,
} from "~/server/email/account-emails";

/** Sign-in, sign-up and password- or code-checking attempts allowed per client IP and minute, each (docs/security.md). */
export const AUTH_ATTEMPTS_PER_MINUTE = 10;

/** Failed sign-ins (passwords and second-factor codes) for one email before each further attempt must wait (docs/security.md). */
export const SIGN_IN_BACKOFF: BackoffPolicy = {
  freeAttempts: 5,
  firstDelaySeconds: 30,
  maxDelaySeconds: 15 * 60,
  forgetAfterSeconds: 60 * 60,
};

/** Where better-auth reads the client's address: set by our route handler, never the client's. */
const AUTH_CLIENT_IP_HEADER = "x-blogmgr-auth-client-ip";

/**
 * The better-auth endpoints the app uses (the sign-up, sign-in and sign-out pages, the session,
 * the account settings with their second factors and sessions, email verification and password
 * reset); every other one answers 404
 * (docs/security.md, Sign-in).
 */
export const AUTH_ENDPOINTS: ReadonlySet<string> = new Set([
  "/sign-up/email",
  "/sign-in/email",
  "/sign-out",
  "/get-session",
  "/update-user",
  "/change-email",
  "/change-password",
  "/list-sessions",
  "/revoke-session",
  "/revoke-other-sessions",
  "/delete-user",
  "/two-factor/enable",
  "/two-factor/verify-totp",
  "/two-factor/verify-backup-code",
  "/two-factor/generate-backup-codes",
  "/two-factor/disable",
  "/passkey/authorize-registration",
  "/passkey/generate-register-options",
  "/passkey/verify-registration",
  "/passkey/generate-authenticate-options",
  "/passkey/verify-authentication",
  "/passkey/list-user-passkeys",
  "/passkey/update-passkey",
  "/passkey/delete-passkey",
  "/verify-email",
  "/send-verification-email",
  "/request-password-reset",
  "/reset-password",
]);

/** Endpoints that answer alike for a known and an unknown address (docs/security.md, No account enumeration). */
const UNIFORM_ANSWERS: ReadonlySet<string> = new Set(["/sign-up/email", "/request-password-reset"]);

/**
 * The least time those take to answer. Both branches do the same kind of work (a password hash
 * and an email queued for sign-up, a lookup and maybe a token for reset), but not the same number
 * of database writes: a floor above either makes them indistinguishable by timing.
 */
const UNIFORM_ANSWER_MS = 400;

/**
 * The endpoints that check a password (turning two-factor sign-in off also takes a code, and so
 * does adding a passkey while it is on).
 */
const PASSWORD_CHECKS: ReadonlySet<string> = new Set([
  "/sign-in/email",
  "/change-password",
  "/change-email",
  "/delete-user",
  "/two-factor/enable",
  "/two-factor/generate-backup-codes",
  "/two-factor/disable",
  "/passkey/authorize-registration",
]);

/** What the endpoints that always take the password do, for their PASSWORD_REQUIRED answer (better-auth would go ahead without one). */
const PASSWORD_REQUIRED_TO: ReadonlyMap<string, string> = new Map([
  ["/delete-user", "delete the account"],
  ["/change-email", "change the email"],
  ["/passkey/authorize-registration", "add a passkey"],
]);

/**
 * The endpoints whose password the app checks before better-auth runs: better-auth checks none for
 * an email change or a passkey, and checks it after the code when turning two-factor sign-in off
 * (a backup code would be used up by a wrong password).
 */
const PASSWORD_CHECKED_FIRST: ReadonlySet<string> = new Set(["/change-email", "/passkey/authorize-registration", "/two-factor/disable"]);

/** How long adding a passkey may take once the password (and code) authorized it: the browser's prompt, then its answer. */
const PASSKEY_REGISTRATION_GRANT_SECONDS = 5 * 60;

/** The verification row of a session's authorization to add one passkey. */
const passkeyRegistrationGrant = (sessionId: string) => `passkey-registration-grant:${sessionId}`;

/**
 * Adding a passkey, first step: the password, and a code while two-factor sign-in is on (checked
 * by the before hook, like the other account settings), authorize this session to ask for one
 * registration challenge within PASSKEY_REGISTRATION_GRANT_SECONDS. Checked before the browser
 * makes a credential: a refused password leaves none behind on the owner's device.
 */
const passkeyRegistrationAuthorization = {
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

/**
 * Setting up a second factor, refused until the account's address is confirmed: whoever signed up
 * with an address not theirs could otherwise keep a way in (a passkey), or keep the owner out (an
 * app's codes), after the owner recovers the account by email (docs/security.md, Passkeys).
 */
const SECOND_FACTOR_SETUP: ReadonlySet<string> = new Set(["/two-factor/enable", "/passkey/authorize-registration", "/passkey/generate-register-options", "/passkey/verify-registration"]);

/** An authenticator app's codes (better-auth's defaults, RFC 6238): 6 digits a 30-second step, the steps before and after the server's clock accepted. */
const TOTP = { digits: 6, period: 30, window: 1 };

/** The endpoints that check an authenticator app's code or a backup code, at sign-in or from the settings. */
const CODE_CHECKS: ReadonlySet<string> = new Set(["/two-factor/verify-totp", "/two-factor/verify-backup-code"]);

/**
 * Password and code checks share one per-address budget, and count against the per-email backoff
 * of the account they check (docs/security.md, Sign-in).
 */
const CREDENTIAL_CHECKS: ReadonlySet<string> = new Set([...PASSWORD_CHECKS, ...CODE_CHECKS]);

/** The signed-in changes an owner is emailed about (docs/security.md, Security notices); turning two-factor sign-in on is told by its first code. */
const SECURITY_NOTICES: Readonly<Record<string, NoticeKind>> = {
  "/change-password": "password-changed",
  "/two-factor/disable": "two-factor-disabled",
  "/two-factor/generate-backup-codes": "backup-codes-replaced",
  "/passkey/verify-registration": "passkey-added",
  "/passkey/delete-passkey": "passkey-removed",
};

/** Endpoints that may queue an email: on Vercel the queue is drained after the answer (docs/security.md, Email). */
const SENDS_EMAIL: ReadonlySet<string> = new Set([
  "/sign-up/email",
  "/send-verification-email",
  "/request-password-reset",
  "/reset-password",
  "/change-email",
  "/verify-email",
  "/two-factor/verify-totp",
  ...Object.keys(SECURITY_NOTICES),
]);

/** The largest body /api/auth reads: its forms send a few hundred bytes. */
export const AUTH_MAX_BODY_BYTES = 64 * 1024;

/**
 * The throttles of sign-in, in the rate-limit store the API uses (shared by every instance when
 * Redis or Upstash is configured): per address the process's limiter under its own prefix, per
 * email a backoff. On globalThis: Next loads this module once per route bundle.
 */
const globalForAuthThrottle = globalThis as unknown as { signInBackoff?: Backoff };

function authThrottle() {
  globalForAuthThrottle.signInBackoff ??= createBackoff("sign-in", SIGN_IN_BACKOFF, sharedStoreClient(configuredStore()));
  return { perIp: configuredRateLimiter("auth-ratelimit"), perEmail: globalForAuthThrottle.signInBackoff };
}

/** The email's throttle subject: a digest, so the store holds no addresses. */
function emailSubject(email: unknown): string {
  const normalized = typeof email === "string" ? email.trim().toLowerCase() : "";
  return createHash("sha256").update(normalized).digest("hex");
}

/** What a credential check's before hook learned, for its after hook (keyed by the request). */
const passwordChecks = new WeakMap<Request, { subject: string }>();

/** The account a password reset link belongs to, as its before hook found it (keyed by the request). */
const passwordResets = new WeakMap<Request, { userId: string }>();

/** An email change being confirmed from the new address, as its before hook found it (keyed by the request). */
const emailChangeConfirmations = new WeakMap<Request, { userId: string; oldEmail: string; newEmail: string; sessionToken?: string }>();

function createAuth() {
  const db = getDb();

  /** Refuses a handle that breaks the rules of sign-up or belongs to another account. */
  async function assertHandleAvailable(value: unknown, ownerId?: string): Promise<void> {
    const handle = normalizedHandle(value);
    const problem = handleProblem(handle);
    if (problem) throw new APIError("BAD_REQUEST", { message: problem, code: "INVALID_HANDLE" });
    if ((await db.user.count({ where: { handle, ...(ownerId ? { NOT: { id: ownerId } } : {}) } })) > 0) {
      throw new APIError("UNPROCESSABLE_ENTITY", { message: `the handle ${handle} is already taken`, code: "HANDLE_TAKEN" });
    }
  }

  /** Refuses a display name that breaks the rule of src/shared/display-name.ts. */
  function assertDisplayName(value: unknown): void {
    if (typeof value === "string" && !displayNameProblem(value.trim())) return;
    throw new APIError("BAD_REQUEST", { message: DISPLAY_NAME_RULE, code: "INVALID_NAME" });
  }

  // Kept to check the code that turning two-factor sign-in off takes (the hooks below).
  const twoFactorPlugin = twoFactor({
    issuer: "Blog Manager",
    // Ten single-use codes, stored encrypted with BETTER_AUTH_SECRET (better-auth's default).
    backupCodeOptions: { amount: 10 },
  });

  return betterAuth({
    secret: env.BETTER_AUTH_SECRET,
    // Its lines join the app's JSON log, with the request id and the same redaction.
    logger: {
      log: (level, message, ...details) => log[level]({ source: "better-auth", ...(details.length > 0 && { details }) }, message),
    },
    // Its failures reach handleAuthRequest, which answers and logs them like the API's; left to
    // better-auth, an unexpected one is a bare 500 and a stack printed outside the JSON log.
    onAPIError: { throw: true },
    // Unset (off Vercel, no BETTER_AUTH_URL): the origin of the request's Host, which
    // handleAuthRequest puts in the URL it hands over; forwarding headers are never believed.
    baseURL: configuredOrigin,
    database: prismaAdapter(db, { provider: "postgresql", transaction: true }),
    emailAndPassword: {
      enabled: true,
      minPasswordLength: PASSWORD_MIN_LENGTH,
      maxPasswordLength: PASSWORD_MAX_LENGTH,
      // Sign-up answers alike whether or not the address has an account, so it never signs in
      // (the sign-up page signs in next); a known address is told by email instead
      // (docs/security.md, No account enumeration).
      autoSignIn: false,
      onExistingUserSignUp: ({ user }, request) => queueAccountExistsEmail(user, originOf(request)),
      resetPasswordTokenExpiresIn: 60 * 60,
      revokeSessionsOnPasswordReset: true,
      sendResetPassword: ({ user, url, token }) => queuePasswordResetEmail(user, new URL(url).origin, token),
      onPasswordReset: ({ user }, request) => passwordWasReset(user, originOf(request)),
    },
    emailVerification: {
      sendOnSignUp: true,
      expiresIn: 24 * 60 * 60,
      // Also the confirmation of a new address (user.changeEmail below): its token says so.
      sendVerificationEmail: ({ user, url, token }) => queueVerificationEmail(user, new URL(url).origin, token),
    },
    user: {
      additionalFields: {
        handle: { type: "string", required: true, input: true },
        plan: { type: "string", required: false, input: false, defaultValue: "free" },
      },
      // Account settings (/dashboard/account). An email change takes the current password, applies
      // once confirmed from the new address, tells the old one and ends the owner's other sessions
      // (the hooks below). Deletion asks for the password; blogs, keys, usage and
      // the request log go with the account (foreign keys' cascades, and the triggers of the
      // blog_day_count and public_content_version migrations); images' files are removed from
      // their store first (an S3 bucket has no cascade).
      changeEmail: { enabled: true },
      deleteUser: { enabled: true, beforeDelete: (user) => removeAccountImages(db, user.id) },
    },
    plugins: [
      twoFactorPlugin,
      passkeyRegistrationAuthorization,
      // The relying party is the app's origin of each request (baseURL unset: the request's; the
      // browser's Origin, checked equal to it by handleAuthRequest): its hostname is the RP ID, so
      // passkeys work at a domain name (localhost included), never at an IP address
      // (docs/security.md, Passkeys). Discoverable credentials: sign-in asks for no email.
      // The authenticator must verify its user (fingerprint, face, PIN), not only see someone
      // present: a passkey stands for a password and a second factor at once. better-auth's
      // plugin accepts either; these refuse a response whose flags lack the verification.
      passkey({
        rpName: "Blog Manager",
        authenticatorSelection: { residentKey: "required", userVerification: "required" },
        registration: { afterVerification: ({ verification }) => assertUserVerified(verification.registrationInfo?.userVerified) },
        authentication: { afterVerification: ({ verification }) => assertUserVerified(verification.authenticationInfo.userVerified) },
      }),
    ],
    advanced: {
      // The address src/server/http/client-ip.ts determined, never X-Forwarded-For as the client sent it.
      ipAddress: { ipAddressHeaders: [AUTH_CLIENT_IP_HEADER] },
    },
    // Cookies keep better-auth's defaults: httpOnly, SameSite=Lax, Secure (and the __Secure-
    // prefix) in production or behind an https BETTER_AUTH_URL.
    rateLimit: {
      enabled: true,
      window: 60,
      max: 100,
      customRules: {
        "/sign-up/email": { window: 60, max: AUTH_ATTEMPTS_PER_MINUTE },
        "/request-password-reset": { window: 60, max: AUTH_ATTEMPTS_PER_MINUTE },
        "/reset-password": { window: 60, max: AUTH_ATTEMPTS_PER_MINUTE },
        "/send-verification-email": { window: 60, max: AUTH_ATTEMPTS_PER_MINUTE },
        ...Object.fromEntries([...CREDENTIAL_CHECKS].map((path) => [path, { window: 60, max: AUTH_ATTEMPTS_PER_MINUTE }])),
      },
      customStorage: {
        // better-auth's key is "<address>|<path>": the credential checks share one bucket per address.
        async consume(key, rule) {
          const separator = key.lastIndexOf("|");
          const bucket = CREDENTIAL_CHECKS.has(key.slice(separator + 1)) ? `${key.slice(0, separator)}|password-check` : key;
          const state = await authThrottle().perIp.consume(bucket, rule.max, rule.window);
          return { allowed: state.success, retryAfter: state.success ? null : Math.max(1, Math.ceil((state.reset - Date.now()) / 1000)) };
        },
      },
    },
    hooks: {
      // Every way a handle is chosen or changed follows the rules of src/shared/handle.ts
      // and takes a free one. Checked before better-auth opens its transaction: a query of ours
      // inside it would wait forever on embedded PGlite's single session. The unique index still
      // settles races.
      before: createAuthMiddleware(async (ctx) => {
        // Text PostgreSQL cannot store as sent is refused by field, as on the API (src/shared/storable-text.ts).
        const unstorable = findUnstorableText(ctx.body);
        if (unstorable) throw new APIError("BAD_REQUEST", { message: unstorable.problem, code: "INVALID_PARAMETER" });
        if (ctx.path === "/sign-up/email") {
          assertDisplayName(ctx.body?.name);
          await assertHandleAvailable(ctx.body?.handle);
        }
        // The app shows no picture of an owner: better-auth's image field would keep any text sent.
        if ((ctx.path === "/sign-up/email" || ctx.path === "/update-user") && ctx.body?.image != null) {
          throw new APIError("BAD_REQUEST", { message: "image is not accepted: accounts have no picture", code: "INVALID_PARAMETER" });
        }
        if (SECOND_FACTOR_SETUP.has(ctx.path)) {
          // Signed out: better-auth refuses the setup itself.
          const session = await getSessionFromCtx(ctx);
          if (session && !session.user.emailVerified) {
            throw new APIError("FORBIDDEN", {
              message: `Confirm your email address before adding a passkey or turning on two-factor sign-in: follow the link emailed to ${session.user.email}`,
              code: "EMAIL_NOT_VERIFIED",
            });
          }
          // A registration challenge only for a session the password (and code) just authorized, once.
          if (session && ctx.path === "/passkey/generate-register-options") {
            const grant = await ctx.context.internalAdapter.consumeVerificationValue(passkeyRegistrationGrant(session.session.id));
            if (!grant || grant.expiresAt < new Date()) {
              throw new APIError("FORBIDDEN", { message: "Confirm your password (and a code) before adding a passkey", code: "PASSKEY_NOT_AUTHORIZED" });
            }
          }
        }
        if (ctx.path === "/update-user" && ctx.body && typeof ctx.body === "object") {
          if ("name" in ctx.body) assertDisplayName(ctx.body.name);
          const session = "handle" in ctx.body ? await getSessionFromCtx(ctx) : null;
          // Signed out: better-auth refuses the update itself.
          if (session) await assertHandleAvailable(ctx.body.handle, session.user.id);
        }
        // Deleting an account, changing its email or adding a passkey always takes its password, however fresh the session.
        const action = PASSWORD_REQUIRED_TO.get(ctx.path);
        if (action && !(typeof ctx.body?.password === "string" && ctx.body.password)) {
          throw new APIError("BAD_REQUEST", { message: `password is required to ${action}`, code: "PASSWORD_REQUIRED" });
        }
        // Every sign-in takes the second factor: no device is trusted to skip it.
        if (CODE_CHECKS.has(ctx.path) && ctx.body?.trustDevice !== undefined) {
          throw new APIError("BAD_REQUEST", { message: "trustDevice is not offered: every sign-in takes a code", code: "INVALID_PARAMETER" });
        }
        if ((ctx.path === "/passkey/verify-registration" || ctx.path === "/passkey/update-passkey") && ctx.body && typeof ctx.body === "object") {
          const name = typeof ctx.body.name === "string" ? ctx.body.name.trim() : "";
          if (!name || name.length > PASSKEY_NAME_MAX_LENGTH) {
            throw new APIError("BAD_REQUEST", { message: `name must be 1 to ${PASSKEY_NAME_MAX_LENGTH} characters`, code: "INVALID_NAME" });
          }
        }
        if (CREDENTIAL_CHECKS.has(ctx.path)) {
          // Signed out, the account calls are refused by better-auth itself.
          const session = ctx.path === "/sign-in/email" ? null : await getSessionFromCtx(ctx);
          const pendingSignIn = !session && CODE_CHECKS.has(ctx.path) ? await pendingSignInUser(ctx) : undefined;
          const email = ctx.path === "/sign-in/email" ? ctx.body?.email : (session?.user.email ?? pendingSignIn?.email);
          if (email === undefined) return;
          const subject = emailSubject(email);
          const waitSeconds = await authThrottle().perEmail.attempt(subject);
          if (waitSeconds > 0) {
            throw new APIError(
              "TOO_MANY_REQUESTS",
              { message: `Too many failed password attempts for this email; try again in ${waitSeconds} s`, code: "TOO_MANY_SIGN_IN_ATTEMPTS" },
              { "Retry-After": String(waitSeconds) },
            );
          }
          if (ctx.request) passwordChecks.set(ctx.request, { subject });
          if (PASSWORD_CHECKED_FIRST.has(ctx.path) && session) {
            await assertPassword(ctx, session.user.id, String(ctx.body?.password ?? ""));
          }
          // better-auth's disable takes only the password, and its passkey registration nothing: the
          // app also takes a code from the authenticator app or a backup code (which is used up).
          if ((ctx.path === "/two-factor/disable" || (ctx.path === "/passkey/authorize-registration" && session?.user.twoFactorEnabled)) && session) {
            const code = typeof ctx.body?.code === "string" ? ctx.body.code.trim() : "";
            const action = ctx.path === "/two-factor/disable" ? "turn off two-factor sign-in" : "add a passkey";
            if (!code) throw new APIError("BAD_REQUEST", { message: `code is required to ${action}`, code: "CODE_REQUIRED" });
            const claimed = await claimTotpStep(ctx, session.user.id, code);
            const check = { ...ctx, method: "POST" as const, body: { code, disableSession: true }, asResponse: false, returnHeaders: false };
            const verified = claimed === "claimed" || (claimed === "no match" && (await twoFactorPlugin.endpoints.verifyBackupCode(check).then(() => true, () => false)));
            if (!verified) throw invalidCode();
          }
          // A code from the app is taken once (better-auth then checks it as usual).
          const codeOwnerId = session?.user.id ?? pendingSignIn?.id;
          if (ctx.path === "/two-factor/verify-totp" && codeOwnerId && (await claimTotpStep(ctx, codeOwnerId, String(ctx.body?.code ?? ""))) === "replayed") {
            throw invalidCode();
          }
        }
        // The account of a password reset link, for the after hook to remove its passkeys.
        const resetToken = ctx.body?.token ?? ctx.query?.token;
        if (ctx.path === "/reset-password" && ctx.request && typeof resetToken === "string") {
          const link = await ctx.context.internalAdapter.findVerificationValue(`reset-password:${resetToken}`);
          if (link) passwordResets.set(ctx.request, { userId: link.value });
        }
        // The link of an email change, followed from the new address: what it changes, if it still can.
        if (ctx.path === "/verify-email" && ctx.request) {
          const claims = verificationTokenClaims(ctx.query?.token);
          if (claims?.requestType !== "change-email-verification" || !claims.userId || !claims.updateTo) return;
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
          const session = await getSessionFromCtx(ctx);
          emailChangeConfirmations.set(ctx.request, {
            userId: claims.userId,
            oldEmail: claims.email,
            newEmail: claims.updateTo,
            sessionToken: session?.user.id === claims.userId ? session.session.token : undefined,
          });
        }
      }),
      after: createAuthMiddleware(async (ctx) => {
        /** Ends every session of the owner's but the one kept (the request's own, if any). */
        async function endOtherSessions(userId: string, keptToken: string | undefined) {
          const sessions = await ctx.context.internalAdapter.listSessions(userId);
          await Promise.all(sessions.filter((s) => s.token !== keptToken).map((s) => ctx.context.internalAdapter.deleteSession(s.token)));
        }
        // Read only where an email is sent: a call made inside the server (getSession) has no base URL.
        const origin = () => new URL(ctx.context.baseURL).origin;
        const confirmation = ctx.request && emailChangeConfirmations.get(ctx.request);
        if (confirmation) {
          const owner = await db.user.findUnique({ where: { id: confirmation.userId }, select: { email: true, name: true, emailVerified: true } });
          if (owner?.email !== confirmation.newEmail) return;
          // Whoever held another session of the owner's loses it with the old address, which is told.
          await endOtherSessions(confirmation.userId, confirmation.sessionToken);
          // better-auth keeps emailVerified through the change: it still tells whether the old address was proven.
          await queueNotice({ email: confirmation.oldEmail, name: owner.name, emailVerified: owner.emailVerified }, origin(), "email-changed", `it is now ${confirmation.newEmail}`);
          return;
        }
        // A password reset by email leaves no passkey behind: one made by whoever held the account
        // before would outlive the recovery (docs/security.md, Passkeys).
        const reset = ctx.request && passwordResets.get(ctx.request);
        if (reset && !isAPIError(ctx.context.returned)) {
          const { count } = await db.passkey.deleteMany({ where: { userId: reset.userId } });
          const owner = count > 0 ? await db.user.findUnique({ where: { id: reset.userId }, select: { email: true, name: true, emailVerified: true } }) : null;
          const removed = count === 1 ? "1 passkey" : `${count} passkeys`;
          if (owner) await queueNotice(owner, origin(), "passkeys-removed", `${removed}, because the password was reset by the emailed link. Once signed in, add yours again from the account page.`);
          return;
        }
        // better-auth's sign-in options only prefer the verification: browsers are asked for it.
        if (ctx.path === "/passkey/generate-authenticate-options" && !isAPIError(ctx.context.returned)) {
          return ctx.json({ ...(ctx.context.returned as object), userVerification: "required" });
        }
        const check = ctx.request && passwordChecks.get(ctx.request);
        // A right password is not yet a sign-in while its second factor is to come.
        const succeeded = ctx.path === "/sign-in/email" ? Boolean(ctx.context.newSession && !ctx.context.newSession.user.twoFactorEnabled) : !isAPIError(ctx.context.returned);
        if (check && succeeded) await authThrottle().perEmail.succeeded(check.subject);
        const owner = ctx.context.session?.user;
        if (!owner || isAPIError(ctx.context.returned)) return;
        // A new secret (a setup started again) has had no code taken yet.
        if (ctx.path === "/two-factor/enable") await db.twoFactor.updateMany({ where: { userId: owner.id }, data: { lastTotpStep: null } });
        // A code confirmed while signed in turns two-factor sign-in on when it was off (its setup);
        // the session's user is as loaded before the change.
        const notice = ctx.path === "/two-factor/verify-totp" ? (owner.twoFactorEnabled ? undefined : "two-factor-enabled") : SECURITY_NOTICES[ctx.path];
        // Once sign-in takes a code, no session opened with the password alone stays (as an email change ends them).
        if (notice === "two-factor-enabled") await endOtherSessions(owner.id, ctx.context.newSession?.session.token);
        if (notice) {
          const detail = ctx.path === "/passkey/verify-registration" && typeof ctx.body?.name === "string" ? `"${ctx.body.name.trim()}"` : undefined;
          await queueNotice(owner, origin(), notice, detail);
        }
      }),
    },
    databaseHooks: {
      user: {
        create: {
          before: async (user) => {
            const handle = normalizedHandle(user.handle);
            return { data: { ...user, handle, name: user.name.trim() } };
          },
        },
        update: {
          before: async (user) => ({
            data: {
              ...user,
              ...("handle" in user && { handle: normalizedHandle(user.handle) }),
              ...(typeof user.name === "string" && { name: user.name.trim() }),
            },
          }),
        },
      },
    },
  });
}

/**
 * better-auth's endpoints for a request that reached Next (src/app/api/auth), behind the app's
 * own checks (docs/security.md, Sign-in): only the endpoints the app uses, only from its own
 * pages (src/server/http/same-origin-request.ts), bodies of at most AUTH_MAX_BODY_BYTES. better-auth
 * gets the request at the app's origin (src/server/http/public-origin.ts) without forwarding headers,
 * and the client's address in a header of ours; its 429s say when to retry in the standard header.
 */
export async function handleAuthRequest(request: Request): Promise<Response> {
  const response = await answerAuthRequest(request);
  // Not behind the proxy (src/proxy.ts), which would buffer the body: the headers are set here
  // (on a copy: a redirect's own headers cannot be changed).
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(API_SECURITY_HEADERS)) headers.set(name, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

async function answerAuthRequest(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const endpoint = url.pathname.slice(AUTH_BASE_PATH.length);
  if (!AUTH_ENDPOINTS.has(endpoint)) return authError(404, "NOT_FOUND", "Not found");
  if (!UNIFORM_ANSWERS.has(endpoint)) return answerAuthEndpoint(request, url, endpoint);
  const startedAt = Date.now();
  const response = await answerAuthEndpoint(request, url, endpoint);
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, UNIFORM_ANSWER_MS - (Date.now() - startedAt))));
  // better-auth's sign-up answer holds the account (a made-up one for a known address): ours holds nothing.
  if (endpoint !== "/sign-up/email" || response.status !== 200) return response;
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  return Response.json({ status: true }, { status: 200, headers });
}

async function answerAuthEndpoint(request: Request, url: URL, endpoint: string): Promise<Response> {
  const refusal = crossOriginRefusal(request);
  if (refusal) return refusal;
  const body = await boundedBody(request);
  if (body === "too large") return authError(413, "PAYLOAD_TOO_LARGE", `Request bodies are limited to ${AUTH_MAX_BODY_BYTES / 1024} KiB`);
  const headers = new Headers(request.headers);
  for (const name of [AUTH_CLIENT_IP_HEADER, "x-forwarded-host", "x-forwarded-proto"]) headers.delete(name);
  const ip = clientIpOfWebRequest(request.headers);
  // better-auth counts an IPv6 client by its /64 itself.
  if (ip) headers.set(AUTH_CLIENT_IP_HEADER, ip);
  const target = `${requestOrigin(request.headers)}${url.pathname}${url.search}`;
  let response: Response;
  try {
    response = await getAuth().handler(new Request(target, { method: request.method, headers, body: body && new Uint8Array(body) }));
  } catch (error) {
    // The API's mapping (logged once, in the JSON log): a database away is a 503, bad data a 400.
    const failure = toApiError(error);
    return authError(failure.httpStatus(), failure.apiCode, failure.message);
  }
  if (SENDS_EMAIL.has(endpoint)) sendQueuedEmailsOnVercel();
  const retryAfter = response.headers.get("X-Retry-After");
  if (response.status === 429 && retryAfter && !response.headers.has("Retry-After")) {
    response.headers.set("Retry-After", retryAfter);
  }
  return response;
}

const AUTH_BASE_PATH = "/api/auth";

function authError(status: number, code: string, message: string): Response {
  return Response.json({ code, message }, { status });
}

/** The request's body, read no further than AUTH_MAX_BODY_BYTES (a larger declared length is not read at all). */
async function boundedBody(request: Request): Promise<Buffer | undefined | "too large"> {
  if (!request.body) return undefined;
  if (Number(request.headers.get("content-length")) > AUTH_MAX_BODY_BYTES) return "too large";
  const chunks: Uint8Array[] = [];
  let received = 0;
  for await (const chunk of request.body as unknown as AsyncIterable<Uint8Array>) {
    received += chunk.byteLength;
    if (received > AUTH_MAX_BODY_BYTES) return "too large";
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

type HookContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];

/**
 * The account whose sign-in waits for its second factor: better-auth's signed two_factor cookie
 * names a verification row holding the user's id.
 */
async function pendingSignInUser(ctx: HookContext): Promise<{ id: string; email: string } | undefined> {
  const cookie = ctx.context.createAuthCookie("two_factor");
  const identifier = await ctx.getSignedCookie(cookie.name, ctx.context.secret);
  if (!identifier) return undefined;
  const pending = await ctx.context.internalAdapter.findVerificationValue(identifier);
  return (pending && (await ctx.context.internalAdapter.findUserById(pending.value))) || undefined;
}

/** Refuses a password that is not the account's (as better-auth words it). */
async function assertPassword(ctx: HookContext, userId: string, password: string): Promise<void> {
  const hash = (await ctx.context.internalAdapter.findCredentialAccount(userId))?.password;
  const matches = Boolean(hash) && password.length <= PASSWORD_MAX_LENGTH && (await ctx.context.password.verify({ hash: hash!, password }));
  if (!matches) throw new APIError("BAD_REQUEST", { message: "Invalid password", code: "INVALID_PASSWORD" });
}

const invalidCode = () => new APIError("UNAUTHORIZED", { message: "Invalid code", code: "INVALID_CODE" });

/**
 * Takes the time step of an authenticator app's code for the account, once: the code of a step
 * already taken, or of an earlier one, is refused, so a code seen over someone's shoulder or
 * caught in transit is worth nothing once used (docs/security.md, Two-factor sign-in). One
 * conditional UPDATE of the account's twoFactor row, so it holds across instances and racing
 * requests. "no match": not a code of the app's current steps (maybe a backup code).
 */
async function claimTotpStep(ctx: HookContext, userId: string, code: string): Promise<"claimed" | "replayed" | "no match"> {
  const db = getDb();
  const twoFactor = await db.twoFactor.findFirst({ where: { userId }, select: { id: true, secret: true } });
  if (!twoFactor || !new RegExp(`^\\d{${TOTP.digits}}$`).test(code)) return "no match";
  const app = createOTP(await symmetricDecrypt({ key: ctx.context.secretConfig, data: twoFactor.secret }), TOTP);
  const now = Math.floor(Date.now() / 1000 / TOTP.period);
  for (let step = now - TOTP.window; step <= now + TOTP.window; step++) {
    if (!constantTimeEqual(await app.hotp(step), code)) continue;
    const { count } = await db.twoFactor.updateMany({
      where: { id: twoFactor.id, OR: [{ lastTotpStep: null }, { lastTotpStep: { lt: step } }] },
      data: { lastTotpStep: step },
    });
    return count === 1 ? "claimed" : "replayed";
  }
  return "no match";
}

/** A passkey's authenticator must have verified its user (flag UV), not only seen one present. */
function assertUserVerified(userVerified: boolean | undefined): void {
  if (!userVerified) {
    throw new APIError("UNAUTHORIZED", { message: "The passkey did not verify its user (fingerprint, face or PIN)", code: "USER_NOT_VERIFIED" });
  }
}

/** The app's origin as better-auth was handed the request (answerAuthEndpoint): the links of its emails start with it. */
function originOf(request: Request | undefined): string {
  return configuredOrigin ?? (request ? new URL(request.url).origin : "");
}

function normalizedHandle(value: unknown): string {
  return typeof value === "string" ? value.trim() : "";
}

export type Auth = ReturnType<typeof createAuth>;

let auth: Auth | undefined;

export function getAuth(): Auth {
  auth ??= createAuth();
  return auth;
}

export type SessionUser = {
  id: string;
  email: string;
  name: string;
  handle: string;
  plan: Plan;
  emailVerified: boolean;
  twoFactorEnabled: boolean;
};

/** The signed-in owner of a request, or null. */
export async function getSessionUser(headers: Headers): Promise<SessionUser | null> {
  const session = await getAuth().api.getSession({ headers });
  if (!session) return null;
  const { id, email, name, handle, plan, emailVerified, twoFactorEnabled } = session.user;
  return { id, email, name, handle: handle ?? "", plan: PLANS.find((p) => p === plan) ?? "free", emailVerified, twoFactorEnabled: twoFactorEnabled === true };
}
