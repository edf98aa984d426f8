import "server-only";
import type { Permission } from "~/shared/permissions";
import type { Meta } from "../trpc";
import { appRouter } from "../root";

/** One operation of the REST surface: its method and path template (e.g. /blogs/{id}). */
export interface RestRoute {
  /** The procedure serving it, by its path in the router ("blogs.create"); null for the handler's own routes (the OpenAPI document, /rate_limit). */
  procedure: string | null;
  method: string;
  template: string;
  pattern: RegExp;
  successStatus: number;
  /** The permission a key needs; null for the handler's own routes, which consume no budget. */
  permission: Permission | null;
  /** The API error codes the operation can answer with beyond the common ones. */
  errors: NonNullable<Meta["errors"]>;
  /** Whether a retry with the same Idempotency-Key replays the first answer. */
  idempotent: boolean;
  /** A body that is a file, not JSON. */
  rawBody?: Meta["rawBody"];
}

export const OPENAPI_DOCUMENT_PATH = "/openapi.json";
/** The account's rate-limit state: any valid key, no permission, nothing consumed (README, The API). */
export const RATE_LIMIT_PATH = "/rate_limit";

function route(procedure: string | null, method: string, template: string, meta: Omit<Meta, "openapi"> = {}): RestRoute {
  const pattern = new RegExp(`^${template.replace(/\{[^}/]+\}/g, "[^/]+")}/?$`);
  return {
    procedure,
    method,
    template,
    pattern,
    successStatus: meta.successStatus ?? 200,
    permission: meta.permission ?? null,
    errors: meta.errors ?? [],
    idempotent: meta.idempotent ?? false,
    rawBody: meta.rawBody,
  };
}

/** Every route of /api/v1, read from the procedures' OpenAPI metadata (and the document itself). */
export const REST_ROUTES: RestRoute[] = [
  route(null, "GET", OPENAPI_DOCUMENT_PATH),
  route(null, "GET", RATE_LIMIT_PATH),
  ...Object.entries(appRouter._def.procedures as unknown as Record<string, { _def: { meta?: Meta } }>).flatMap(([path, procedure]) => {
    const meta = procedure._def.meta;
    return meta?.openapi ? [route(path, meta.openapi.method, meta.openapi.path, meta)] : [];
  }),
];

export type RouteMatch = { route: RestRoute } | { allowed: string[] } | null;

/** The route serving `method` on `path`; or, when only other methods serve the path, those. */
export function matchRoute(method: string, path: string): RouteMatch {
  const candidates = REST_ROUTES.filter((r) => r.pattern.test(path));
  const exact = candidates.find((r) => r.method === method);
  if (exact) return { route: exact };
  return candidates.length > 0 ? { allowed: [...new Set(candidates.map((r) => r.method))] } : null;
}

/** The route a procedure serves, by its path in the router. */
export function routeOfProcedure(procedurePath: string): RestRoute | undefined {
  return REST_ROUTES.find((r) => r.procedure === procedurePath);
}
