import "server-only";
import type { AnyProcedure, AnyRouter } from "@trpc/server";
import type { Permission } from "~/shared/permissions";
import type { Meta } from "../trpc";
import { appRouter } from "../root";

/** The tRPC procedure serving a route, as the OpenAPI adapter calls it (./openapi-adapter.ts). */
export interface RouteProcedure {
  /** Its path in the router ("blogs.create"). */
  path: string;
  procedure: AnyProcedure;
}

/** One operation of the REST surface: its method and path template (e.g. /blogs/{id}). */
export interface RestRoute {
  /** The procedure serving it; null for the handler's own routes (the OpenAPI document, /rate_limit). */
  procedure: RouteProcedure | null;
  method: string;
  template: string;
  /** Matches the path below /api/v1, a trailing slash allowed; its named groups are the path's parameters. */
  pattern: RegExp;
  successStatus: number;
  /** Another status a success may answer with, the same body (an upload of bytes already stored: 200). */
  alternateSuccess?: Meta["alternateSuccess"];
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

function route(procedure: RouteProcedure | null, method: string, template: string, meta: Omit<Meta, "openapi"> = {}): RestRoute {
  const pattern = new RegExp(`^${template.replace(/\{([^}/]+)\}/g, "(?<$1>[^/]+)")}/?$`);
  return {
    procedure,
    method,
    template,
    pattern,
    successStatus: meta.successStatus ?? 200,
    alternateSuccess: meta.alternateSuccess,
    permission: meta.permission ?? null,
    errors: meta.errors ?? [],
    idempotent: meta.idempotent ?? false,
    rawBody: meta.rawBody,
  };
}

/** The routes of a router's procedures, read from their OpenAPI metadata. */
export function routesOfRouter(router: AnyRouter): RestRoute[] {
  return Object.entries(router._def.procedures as Record<string, AnyProcedure>).flatMap(([path, procedure]) => {
    const meta = procedure._def.meta as Meta | undefined;
    return meta?.openapi ? [route({ path, procedure }, meta.openapi.method, meta.openapi.path, meta)] : [];
  });
}

/** Every route of /api/v1: the procedures' and the handler's own (the document, the rate-limit state). */
export const REST_ROUTES: RestRoute[] = [route(null, "GET", OPENAPI_DOCUMENT_PATH), route(null, "GET", RATE_LIMIT_PATH), ...routesOfRouter(appRouter)];

/** A request's route, with the path's parameters it captured. */
export interface RoutedRequest {
  route: RestRoute;
  pathInput: Record<string, string>;
}

export type RouteMatch = RoutedRequest | { allowed: string[] } | null;

/**
 * The one routing of a request (the adapter is handed its result): the first route serving
 * `method` on `path`, with the path's parameters as given (not decoded, as trpc-to-openapi reads
 * them); or, when only other methods serve the path, those; null for a path no route serves.
 */
export function createRouteMatcher(routes: RestRoute[]): (method: string, path: string) => RouteMatch {
  const byMethod = new Map<string, RestRoute[]>();
  for (const r of routes) byMethod.set(r.method, [...(byMethod.get(r.method) ?? []), r]);
  return (method, path) => {
    for (const candidate of byMethod.get(method) ?? []) {
      const found = candidate.pattern.exec(path);
      if (found) return { route: candidate, pathInput: { ...found.groups } };
    }
    const allowed = [...new Set(routes.filter((r) => r.pattern.test(path)).map((r) => r.method))];
    return allowed.length > 0 ? { allowed } : null;
  };
}

/** The route of /api/v1 serving `method` on `path` (below the prefix). */
export const matchRoute = createRouteMatcher(REST_ROUTES);
