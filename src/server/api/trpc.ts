import "server-only";
/**
 * tRPC setup: the context and the procedure builders (one for the operations keys may call, one
 * for the owner's own). Both doors serve the same procedures: /api/v1
 * (src/server/api/rest/handler.ts) resolves the caller from an API key, checked before the
 * procedure runs; /api/trpc (src/server/api/dashboard/handler.ts) from the owner's session.
 * What a caller may do follows from the caller alone (src/server/accounts/caller.ts).
 */
import { initTRPC, TRPCError } from "@trpc/server";
import type { OpenApiMeta } from "trpc-to-openapi";
import { callerAccount, callerHolds, refusalMessage, type Caller } from "~/server/accounts/caller";
import { actingAs, actorOf } from "~/server/audit/context";
import type { SessionMember } from "~/server/auth";
import { getDb, getSqlPool, type Db } from "~/server/db";
import { DomainError } from "~/server/common/domain-error";
import type { Permission } from "~/shared/permissions";
import type { Role } from "~/shared/roles";
import { findUnstorableText } from "~/shared/storable-text";
import { forgetPublicPages } from "~/server/public-site/forget";
import { currentRequestId } from "~/server/runtime/log";
import type { ApiErrorCode } from "./errors";
import { ApiError, toApiError } from "./errors";

export interface RequestContextOptions {
  headers: Headers;
  url: URL;
  /** Headers added to the response, whatever its outcome (rate-limit state, Retry-After). */
  resHeaders: Headers;
  /** Runs work after the response has been sent (Next's `after`), so it adds no latency. */
  afterResponse: (task: () => Promise<unknown>) => void;
  /** Who is calling, as the door resolved it; null when nobody is (the dashboard without a session). */
  caller: Caller<SessionMember> | null;
  /** The door's own limit on changes, run before each mutation (the dashboard's per-owner budget). */
  limitMutation?: () => Promise<void>;
  /** Where a procedure answering its meta's `alternateSuccess` says so: /api/v1 answers with that status. */
  successStatus?: { alternate?: boolean };
}

export function createTRPCContext(opts: RequestContextOptions) {
  // `sql`: the pool under `db`, the one channel of raw statements (src/server/db/index.ts).
  return { db: getDb() as Db, sql: getSqlPool(), ...opts };
}

export type Context = ReturnType<typeof createTRPCContext>;

/**
 * Procedure metadata: who may call it (the permission a key needs, or the owner alone), the
 * OpenAPI operation (only for the API's operations), the status of its success when not 200, the
 * API error codes it can answer with beyond the common ones, whether it honours Idempotency-Key, a
 * body that is not JSON, and whether it changes what the public site shows.
 */
export type Meta = OpenApiMeta<{
  /** The permission a key needs (none: no key may call it). */
  permission?: Permission;
  /**
   * The least trusted role a member needs in the dashboard (docs/teams.md, Roles): every procedure
   * names one (tests/members/role-matrix.test.ts); without it no member may call it.
   */
  minRole?: Role;
  /** Refused to every key: set by ownerProcedure, so no operation is the owner's by leaving out its permission (tests/api/caller-rule.test.ts). */
  ownerOnly?: true;
  /** A success changes what the account's public pages show: they are made again at once (src/server/public-site/forget.ts). */
  changesPublicPages?: true;
  successStatus?: number;
  /** Another success status, chosen by the procedure (ctx.successStatus), its body the same shape. */
  alternateSuccess?: { status: number; description: string };
  errors?: ApiErrorCode[];
  idempotent?: boolean;
  /** The body is a file, not JSON: /api/v1 reads it as one (an image: src/server/api/rest/image-body.ts; an export: src/server/api/import-upload.ts). */
  rawBody?: "image" | "import";
}>;

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
        data: { ...shape.data, apiCode: apiError.apiCode, details: apiError.details, field: apiError.field, requestId: currentRequestId() },
      };
    },
  });

export const createTRPCRouter = t.router;

/**
 * The builder of every operation a key may call, each declaring the permission it needs in its
 * meta, with the one middleware every call goes through. The caller must be allowed by the
 * procedure's meta (src/server/accounts/caller.ts, callerHolds): a member by the role it names
 * (minRole), a key by the permission (already checked by /api/v1 before the body was read; here a
 * guard, not a second lookup); a dashboard-only operation (ownerProcedure) is refused to keys; text PostgreSQL could not store as sent is refused by
 * field (src/shared/storable-text.ts); after a change declaring `changesPublicPages`, the
 * account's public pages are made again (src/server/public-site/forget.ts). One middleware rather
 * than one per concern: tRPC copies the call's options and context at every level of the chain.
 */
export const procedure = t.procedure.use(async ({ ctx, meta, type, getRawInput, next }) => {
  const { caller } = ctx;
  if (!caller) throw new TRPCError({ code: "UNAUTHORIZED", message: "Sign in to continue" });
  const rule = meta ?? {};
  if (!callerHolds(caller, rule)) throw new ApiError("INSUFFICIENT_PERMISSIONS", refusalMessage(caller, rule));
  if (type === "mutation") await ctx.limitMutation?.();
  // Every text input (body, query and path alike), before any schema or the database sees it. An
  // input tRPC cannot parse is left to the procedure (refused by its input parser, ignored without one).
  const unstorable = findUnstorableText(await getRawInput().catch(() => undefined));
  if (unstorable) throw new ApiError("INVALID_PARAMETER", `Invalid parameter: ${unstorable.field}`, unstorable.problem, { field: unstorable.field });
  // The context goes on as it is, its caller now known not to be null: a `ctx` given to `next`
  // would be copied, all its fields, on every call (bench/README.md, "Allocations on the hot path").
  // A change is recorded in the audit log as the caller's, from the request's address and user
  // agent (src/server/audit/context.ts); reads name nobody and cost nothing.
  const proceed = () => next<{ caller: Caller<SessionMember> }>({});
  const result = type === "mutation" ? await actingAs(actorOf(caller), proceed, ctx) : await proceed();
  // A change to what the account's public pages show appears on the public site's next request.
  if (meta?.changesPublicPages && result.ok) await forgetPublicPages(callerAccount(caller).id);
  // A broken domain rule answers with its own status (404, 409, 400), not a 500.
  if (!result.ok && result.error.cause instanceof DomainError) throw toApiError(result.error.cause);
  return result;
});

/** A procedure's context: its caller known (shared by procedures that differ only in how they are reached). */
export type ProcedureContext = Context & { caller: Caller<SessionMember> };

/** The builder of the owner's own operations (keys, usage, webhooks, preview links): refused to every key, served only on /api/trpc. */
export const ownerProcedure = procedure.meta({ ownerOnly: true });
