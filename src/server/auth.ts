import "server-only";
/**
 * Accounts in the browser: better-auth with email and password, sessions in PostgreSQL (the
 * user/session/account/verification tables of prisma/schema.prisma). Created on first use, so
 * that importing this module (e.g. while Next builds) needs no database.
 */
import { betterAuth } from "better-auth";
import { prismaAdapter } from "better-auth/adapters/prisma";
import { APIError, createAuthMiddleware, getSessionFromCtx } from "better-auth/api";
import { createHash } from "node:crypto";
import { env } from "~/env";
import { log } from "~/server/log";
import { getDb } from "~/server/db";
import { handleProblem } from "~/shared/handle";
import { PLANS, type Plan } from "~/shared/plans";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "~/server/accounts/create-account";
import { clientIpOfWebRequest } from "~/server/client-ip";
import { createRateLimiter, sharedStoreClient, type RateLimiter } from "~/server/ratelimit";
import { createBackoff, type Backoff, type BackoffPolicy } from "~/server/ratelimit/backoff";

/** Sign-in, sign-up and password-checking attempts allowed per client IP and minute, each (docs/security.md). */
export const AUTH_ATTEMPTS_PER_MINUTE = 10;

/** Failed sign-ins for one email before each further attempt must wait (docs/security.md). */
export const SIGN_IN_BACKOFF: BackoffPolicy = {
  freeAttempts: 5,
  firstDelaySeconds: 30,
  maxDelaySeconds: 15 * 60,
  forgetAfterSeconds: 60 * 60,
};

/** Where better-auth reads the client's address: set by our route handler, never the client's. */
const AUTH_CLIENT_IP_HEADER = "x-blogmgr-auth-client-ip";

/**
 * The throttles of sign-in, in the rate-limit store the API uses (shared by every instance when
 * Redis or Upstash is configured). On globalThis: Next loads this module once per route bundle.
 */
const globalForAuthThrottle = globalThis as unknown as { authThrottle?: { perIp: RateLimiter; perEmail: Backoff } };

function authThrottle() {
  const storeConfig = { upstashUrl: env.UPSTASH_REDIS_REST_URL, upstashToken: env.UPSTASH_REDIS_REST_TOKEN, redisUrl: env.REDIS_URL };
  globalForAuthThrottle.authThrottle ??= {
    perIp: createRateLimiter({ ...storeConfig, prefix: "auth-ratelimit" }),
    perEmail: createBackoff("sign-in", SIGN_IN_BACKOFF, sharedStoreClient(storeConfig)),
  };
  return globalForAuthThrottle.authThrottle;
}

/** The email's throttle subject: a digest, so the store holds no addresses. */
function emailSubject(email: unknown): string {
  const normalized = typeof email === "string" ? email.trim().toLowerCase() : "";
  return createHash("sha256").update(normalized).digest("hex");
}

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

  return betterAuth({
    secret: env.BETTER_AUTH_SECRET,
    // Its lines join the app's JSON log, with the request id and the same redaction.
    logger: {
      log: (level, message, ...details) => log[level]({ source: "better-auth", ...(details.length > 0 && { details }) }, message),
    },
    // Unset: better-auth infers the origin of each request.
    baseURL: env.BETTER_AUTH_URL,
    database: prismaAdapter(db, { provider: "postgresql", transaction: true }),
    emailAndPassword: {
      enabled: true,
      minPasswordLength: PASSWORD_MIN_LENGTH,
      maxPasswordLength: PASSWORD_MAX_LENGTH,
    },
    user: {
      additionalFields: {
        handle: { type: "string", required: true, input: true },
        plan: { type: "string", required: false, input: false, defaultValue: "free" },
      },
      // Account settings (/dashboard/account). No email is ever sent, so addresses are never
      // verified: a change applies at once. Deletion asks for the password; blogs, keys, usage and
      // the request log go with the account (foreign keys' cascades, and the triggers of the
      // blog_day_count and public_content_version migrations).
      changeEmail: { enabled: true, updateEmailWithoutVerification: true },
      deleteUser: { enabled: true },
    },
    advanced: {
      // Without BETTER_AUTH_URL the origin is the one the browser used, as the host and proxy headers
      // tell it (Next sets x-forwarded-host/proto itself; so do Vercel and most proxies): sign-in
      // forms are accepted only from that same origin.
      trustedProxyHeaders: !env.BETTER_AUTH_URL,
      // The address src/server/client-ip.ts determined, never X-Forwarded-For as the client sent it.
      ipAddress: { ipAddressHeaders: [AUTH_CLIENT_IP_HEADER] },
    },
    // Cookies keep better-auth's defaults: httpOnly, SameSite=Lax, Secure (and the __Secure-
    // prefix) in production or behind an https BETTER_AUTH_URL.
    rateLimit: {
      enabled: true,
      window: 60,
      max: 100,
      customRules: {
        "/sign-in/email": { window: 60, max: AUTH_ATTEMPTS_PER_MINUTE },
        "/sign-up/email": { window: 60, max: AUTH_ATTEMPTS_PER_MINUTE },
        // The account settings' calls that check the password (or change the address signed in with).
        "/change-password": { window: 60, max: AUTH_ATTEMPTS_PER_MINUTE },
        "/change-email": { window: 60, max: AUTH_ATTEMPTS_PER_MINUTE },
        "/delete-user": { window: 60, max: AUTH_ATTEMPTS_PER_MINUTE },
      },
      customStorage: {
        async consume(key, rule) {
          const state = await authThrottle().perIp.consume(key, rule.max, rule.window);
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
        if (ctx.path === "/sign-up/email") await assertHandleAvailable(ctx.body?.handle);
        if (ctx.path === "/update-user" && ctx.body && typeof ctx.body === "object" && "handle" in ctx.body) {
          const session = await getSessionFromCtx(ctx);
          // Signed out: better-auth refuses the update itself.
          if (session) await assertHandleAvailable(ctx.body.handle, session.user.id);
        }
        // Deleting an account always takes its password, however fresh the session.
        if (ctx.path === "/delete-user" && !(typeof ctx.body?.password === "string" && ctx.body.password)) {
          throw new APIError("BAD_REQUEST", { message: "password is required to delete the account", code: "PASSWORD_REQUIRED" });
        }
        if (ctx.path === "/sign-in/email") {
          const waitSeconds = await authThrottle().perEmail.attempt(emailSubject(ctx.body?.email));
          if (waitSeconds > 0) {
            throw new APIError(
              "TOO_MANY_REQUESTS",
              { message: `Too many failed sign-ins for this email; try again in ${waitSeconds} s`, code: "TOO_MANY_SIGN_IN_ATTEMPTS" },
              { "Retry-After": String(waitSeconds) },
            );
          }
        }
      }),
      after: createAuthMiddleware(async (ctx) => {
        if (ctx.path === "/sign-in/email" && ctx.context.newSession) {
          await authThrottle().perEmail.succeeded(emailSubject(ctx.body?.email));
        }
      }),
    },
    databaseHooks: {
      user: {
        create: {
          before: async (user) => {
            const handle = normalizedHandle(user.handle);
            return { data: { ...user, handle, name: user.name?.trim() || handle } };
          },
        },
        update: {
          before: async (user) => ("handle" in user ? { data: { ...user, handle: normalizedHandle(user.handle) } } : { data: user }),
        },
      },
    },
  });
}

/**
 * better-auth's endpoints for a request that reached Next (src/app/api/auth): the client's
 * address goes to better-auth in a header of ours, and its 429s say when to retry in the
 * standard header.
 */
export async function handleAuthRequest(request: Request): Promise<Response> {
  const headers = new Headers(request.headers);
  headers.delete(AUTH_CLIENT_IP_HEADER);
  const ip = clientIpOfWebRequest(request.headers);
  // better-auth counts an IPv6 client by its /64 itself.
  if (ip) headers.set(AUTH_CLIENT_IP_HEADER, ip);
  const response = await getAuth().handler(new Request(request, { headers }));
  const retryAfter = response.headers.get("X-Retry-After");
  if (response.status === 429 && retryAfter && !response.headers.has("Retry-After")) {
    response.headers.set("Retry-After", retryAfter);
  }
  return response;
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
};

/** The signed-in owner of a request, or null. */
export async function getSessionUser(headers: Headers): Promise<SessionUser | null> {
  const session = await getAuth().api.getSession({ headers });
  if (!session) return null;
  const { id, email, name, handle, plan } = session.user;
  return { id, email, name, handle: handle ?? "", plan: PLANS.find((p) => p === plan) ?? "free" };
}
