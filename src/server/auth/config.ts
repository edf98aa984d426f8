import "server-only";
/**
 * Accounts in the browser: better-auth with email and password, an authenticator app's codes as a
 * second factor, passkeys, sessions in PostgreSQL (the user/session/account/verification/twoFactor/
 * passkey tables of prisma/schema.prisma). Created on first use, so that importing this module
 * (e.g. while Next builds) needs no database.
 */
import { betterAuth } from "better-auth";
import { prismaAdapter } from "better-auth/adapters/prisma";
import { env } from "~/env";
import { log } from "~/server/runtime/log";
import { getDb } from "~/server/db";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "~/shared/account-credentials";
import { normalizedBio } from "~/shared/bio";
import { configuredOrigin } from "~/server/http/public-origin";
import { createOwnPublication, followOwnHandle } from "~/server/accounts/own-publication";
import { removeOwnedPublicationImages } from "~/server/accounts/delete-publications";
import { passwordWasReset, queueAccountExistsEmail, queuePasswordResetEmail, queueVerificationEmail } from "~/server/email/account-emails";
import { endpointsWhere, isCredentialCheck } from "./endpoint-policies";
import { normalizedHandle } from "./field-guards";
import { organizationPlugin } from "./organization";
import { authGuards } from "./guards";
import { passkeyPlugin, passkeyRegistrationAuthorization } from "./passkeys";
import { AUTH_ATTEMPTS_PER_MINUTE, authAttemptStorage } from "./sign-in-throttle";
import { twoFactorPlugin } from "./two-factor";

/** Where better-auth reads the client's address: set by the door (door.ts), never the client's. */
export const AUTH_CLIENT_IP_HEADER = "x-blogmgr-auth-client-ip";

/** The app's origin as better-auth was handed the request (door.ts): the links of its emails start with it. */
function originOf(request: Request | undefined): string {
  return configuredOrigin ?? (request ? new URL(request.url).origin : "");
}

function createAuth() {
  const db = getDb();

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
        // Shown on the posts they author (docs/public-blog.md, Authors); checked by field-guards.ts.
        bio: { type: "string", required: false, input: true, defaultValue: "" },
      },
      // Account settings (/dashboard/account). An email change takes the current password, applies
      // once confirmed from the new address, tells the old one and ends the owner's other sessions
      // (the guards). Deletion asks for the password; the publications the person owns go with
      // them (docs/teams.md: transfer one first to keep it), and with each its blogs, keys, usage
      // and request log (foreign keys' cascades, and the triggers of the blog_day_count and
      // public_content_version migrations); images' files are removed from their store first (an
      // S3 bucket has no cascade).
      changeEmail: { enabled: true },
      deleteUser: { enabled: true, beforeDelete: (user) => removeOwnedPublicationImages(db, user.id) },
    },
    // The guards first: their hooks run before the other plugins' (guards.ts).
    // organizationPlugin: publications' members and invitations (organization.ts), reached only through the app's procedures.
    plugins: [authGuards, twoFactorPlugin, passkeyRegistrationAuthorization, passkeyPlugin, organizationPlugin],
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
      customRules: Object.fromEntries(
        endpointsWhere((p) => p.ownAttemptBudget || isCredentialCheck(p)).map((path) => [path, { window: 60, max: AUTH_ATTEMPTS_PER_MINUTE }]),
      ),
      customStorage: authAttemptStorage,
    },
    databaseHooks: {
      user: {
        create: {
          before: async (user) => {
            const handle = normalizedHandle(user.handle);
            return { data: { ...user, handle, name: user.name.trim(), ...(typeof user.bio === "string" && { bio: normalizedBio(user.bio) }) } };
          },
          // After better-auth's transaction (its hooks run once it commits): every sign-up brings its own publication.
          after: async (user) => createOwnPublication(db, { id: user.id, name: user.name, handle: String(user.handle) }),
        },
        update: {
          before: async (user) => ({
            data: {
              ...user,
              ...("handle" in user && { handle: normalizedHandle(user.handle) }),
              ...(typeof user.name === "string" && { name: user.name.trim() }),
              ...(typeof user.bio === "string" && { bio: normalizedBio(user.bio) }),
            },
          }),
          after: async (user) => {
            if (typeof user.handle === "string") await followOwnHandle(db, { id: user.id, handle: user.handle });
          },
        },
      },
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;

let auth: Auth | undefined;

export function getAuth(): Auth {
  auth ??= createAuth();
  return auth;
}
