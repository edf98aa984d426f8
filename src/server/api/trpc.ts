/**
 * tRPC setup: the one context factory and the procedure builders. Each kind of caller has its
 * builder: `apiKeyProcedure(permission)` for the public REST API, which authenticates the key,
 * checks its permission and applies the account's rate limit, in that order (README, The API);
 * `sessionProcedure` for the dashboard (/api/trpc), which requires a signed-in owner.
 */
import { initTRPC, TRPCError } from "@trpc/server";
import type { OpenApiMeta } from "trpc-to-openapi";
import { getDb, getSqlPool, type Db } from "~/server/db";
import type { Permission } from "~/shared/permissions";
import type { AuthenticatedKey } from "~/server/keys/authenticate";
import { getSessionUser } from "~/server/auth";
import { DomainError } from "~/server/domain-error";
import { currentRequestId } from "~/server/log";
import type { ApiErrorCode } from "./errors";
import { ApiError, toApiError } from "./errors";
import { assertPermission, authenticateRequestKey } from "./middleware/api-key";
import { consumeAccountRate, consumeDashboardMutation } from "./middleware/rate-limit";

export interface RequestContextOptions {
  headers: Headers;
  url: URL;
  /** Headers added to the response, whatever its outcome (rate-limit state, Retry-After). */
  resHeaders: Headers;
  /** Runs work after the response has been sent (Next's `after`), so it adds no latency. */
  afterResponse: (task: () => Promise<unknown>) => void;
  /** What the request turned out to be, for the transport to log and record after answering. */
  outcome: { apiKey?: AuthenticatedKey };
  /** Who serves the request: the REST handler (/api/v1, the default) or the dashboard's /api/trpc. */
  transport?: "rest" | "dashboard";
}

export function createTRPCContext(opts: RequestContextOptions) {
  // `sql`: the pool under `db`, for the hot path's statements (src/server/hot-path-sql.ts).
  return { db: getDb() as Db, sql: getSqlPool(), ...opts, transport: opts.transport ?? "rest" };
}

/**
 * The context of a dashboard request (/api/trpc): its headers carry the session cookie; `resHeaders`
 * are the response's (Retry-After). Nothing is recorded.
 */
export function createDashboardContext(
  req: Request,
  resHeaders: Headers,
  afterResponse: RequestContextOptions["afterResponse"],
) {
  return createTRPCContext({
    headers: req.headers,
    url: new URL(req.url),
    resHeaders,
    afterResponse,
    outcome: {},
    transport: "dashboard",
  });
}

export type Context = ReturnType<typeof createTRPCContext>;

/**
 * Procedure metadata: the OpenAPI operation, the status of its success when not 200, and the API
 * error codes it can answer with beyond the common ones.
 */
export type Meta = OpenApiMeta<{ successStatus?: number; errors?: ApiErrorCode[] }>;

const t = initTRPC
  .context<Context>()
  .meta<Meta>()
  .create({
    errorFormatter({ shape, error }) {
      // The dashboard's "sign in first": nothing went wrong, nothing to log.
      if (error.code === "UNAUTHORIZED" && !(error instanceof ApiError)) return shape;
      // The message is the API's: for an unexpected failure a generic one, never the cause's text
      // (logged with the request id, which the dashboard shows).
      const apiError = toApiError(error);
      return {
        ...shape,
        message: apiError.message,
        data: { ...shape.data, apiCode: apiError.apiCode, details: apiError.details, requestId: currentRequestId() },
      };
    },
  });

export const createTRPCRouter = t.router;

/**
 * A procedure of the public API, callable with an API key that holds `permission`: one
 * middleware authenticates, authorizes and rate-limits, in the order the README gives (The API).
 */
export function apiKeyProcedure(permission: Permission) {
  return t.procedure.use(async ({ ctx, next }) => {
    // Only through /api/v1, where every request is shaped, limited and recorded.
    if (ctx.transport !== "rest") throw new TRPCError({ code: "NOT_FOUND", message: "Not a dashboard procedure" });
    const apiKey = await authenticateRequestKey(ctx);
    await assertPermission(ctx, apiKey, permission);
    await consumeAccountRate(ctx.resHeaders, apiKey);
    return next({ ctx: { apiKey } });
  });
}

/** A dashboard procedure: requires a signed-in owner, whose id scopes everything it touches. */
export const sessionProcedure = t.procedure
  .use(async ({ next }) => {
    // A broken domain rule answers with its own status (404, 409, 400), not a 500.
    const result = await next();
    if (!result.ok && result.error.cause instanceof DomainError) throw toApiError(result.error.cause);
    return result;
  })
  .use(async ({ ctx, next, type }) => {
    const user = await getSessionUser(ctx.headers);
    if (!user) throw new TRPCError({ code: "UNAUTHORIZED", message: "Sign in to continue" });
    if (type === "mutation") await consumeDashboardMutation(ctx.resHeaders, user.id);
    return next({ ctx: { user } });
  });
