/**
 * tRPC setup: the one context factory and the procedure builders. Each kind of caller has its
 * builder: `apiKeyProcedure(permission)` for the public REST API, which authenticates the key,
 * checks its permission and applies the account's rate limit, in that order (spec 5.4).
 */
import { initTRPC } from "@trpc/server";
import type { OpenApiMeta } from "trpc-to-openapi";
import { getDb, type Db } from "~/server/db";
import type { Permission } from "~/server/keys/permissions";
import type { AuthenticatedKey } from "~/server/keys/authenticate";
import type { ApiErrorCode } from "./errors";
import { toApiError } from "./errors";
import { assertPermission, authenticateRequestKey } from "./middleware/api-key";
import { consumeAccountRate } from "./middleware/rate-limit";

export interface RequestContextOptions {
  headers: Headers;
  url: URL;
  /** Headers added to the response, whatever its outcome (rate-limit state, Retry-After). */
  resHeaders: Headers;
  /** Runs work after the response has been sent (Next's `after`), so it adds no latency. */
  afterResponse: (task: () => Promise<unknown>) => void;
  /** What the request turned out to be, for the transport to log and record after answering. */
  outcome: { apiKey?: AuthenticatedKey };
}

export function createTRPCContext(opts: RequestContextOptions) {
  return { db: getDb() as Db, ...opts };
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
      const apiError = toApiError(error);
      return { ...shape, data: { ...shape.data, apiCode: apiError.apiCode, details: apiError.details } };
    },
  });

export const createTRPCRouter = t.router;
export const createCallerFactory = t.createCallerFactory;
export const publicProcedure = t.procedure;

/** A procedure of the public API, callable with an API key that holds `permission`. */
export function apiKeyProcedure(permission: Permission) {
  return t.procedure
    .use(async ({ ctx, next }) => next({ ctx: { apiKey: await authenticateRequestKey(ctx) } }))
    .use(async ({ ctx, next }) => {
      await assertPermission(ctx, ctx.apiKey, permission);
      return next();
    })
    .use(async ({ ctx, next }) => {
      await consumeAccountRate(ctx.resHeaders, ctx.apiKey);
      return next();
    });
}
