/**
 * Accounts in the browser: better-auth with email and password, sessions in PostgreSQL (the
 * user/session/account/verification tables of prisma/schema.prisma). Created on first use, so
 * that importing this module (e.g. while Next builds) needs no database.
 */
import { betterAuth } from "better-auth";
import { prismaAdapter } from "better-auth/adapters/prisma";
import { APIError, createAuthMiddleware } from "better-auth/api";
import { env } from "~/env";
import type { Plan } from "~/generated/prisma/enums";
import { PLANS } from "~/server/accounts/plan";
import { getDb } from "~/server/db";
import { handleProblem } from "~/server/accounts/handle";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "~/server/accounts/create-account";

/** Sign-in and sign-up attempts allowed per client IP and minute. */
export const AUTH_ATTEMPTS_PER_MINUTE = 10;

function createAuth() {
  const db = getDb();
  return betterAuth({
    secret: env.BETTER_AUTH_SECRET,
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
    },
    // Without BETTER_AUTH_URL the origin is the one the browser used, as the host and proxy headers
    // tell it (Next sets x-forwarded-host/proto itself; so do Vercel and most proxies): sign-in
    // forms are accepted only from that same origin.
    advanced: { trustedProxyHeaders: !env.BETTER_AUTH_URL },
    // Cookies keep better-auth's defaults: httpOnly, SameSite=Lax, Secure (and the __Secure-
    // prefix) in production or behind an https BETTER_AUTH_URL.
    rateLimit: {
      enabled: true,
      // One process's memory: exact per instance, which is enough to slow password guessing.
      storage: "memory",
      window: 60,
      max: 100,
      customRules: {
        "/sign-in/email": { window: 60, max: AUTH_ATTEMPTS_PER_MINUTE },
        "/sign-up/email": { window: 60, max: AUTH_ATTEMPTS_PER_MINUTE },
      },
    },
    hooks: {
      // Sign-up: the handle must follow the rules of src/server/accounts/handle.ts and be free.
      // Checked before better-auth opens its transaction: a query of ours inside it would wait
      // forever on embedded PGlite's single session. The unique index still settles races.
      before: createAuthMiddleware(async (ctx) => {
        if (ctx.path !== "/sign-up/email") return;
        const handle = normalizedHandle(ctx.body?.handle);
        const problem = handleProblem(handle);
        if (problem) throw new APIError("BAD_REQUEST", { message: problem, code: "INVALID_HANDLE" });
        if ((await db.user.count({ where: { handle } })) > 0) {
          throw new APIError("UNPROCESSABLE_ENTITY", { message: `the handle ${handle} is already taken`, code: "HANDLE_TAKEN" });
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
      },
    },
  });
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
