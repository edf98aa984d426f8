import "server-only";
import type { IncomingMessage } from "node:http";
import { TRPCError, type AnyRouter, type inferRouterContext } from "@trpc/server";
import { ZodArray } from "zod";
import {
  acceptsRequestBody,
  coerceSchema,
  createProcedureCache,
  getErrorFromUnknown,
  getInputOutputParsers,
  getQuery,
  instanceofZodTypeLikeVoid,
  instanceofZodTypeObject,
  instanceofZodTypeOptional,
  normalizePath,
  unwrapZodType,
  zodSupportsCoerce,
  type OpenApiProcedure,
  type OpenApiRouter,
} from "trpc-to-openapi";

/**
 * trpc-to-openapi as /api/v1 uses it: a request is routed to its procedure by the library's
 * procedure cache (the procedures' OpenAPI paths), its input read as the library's handler reads
 * it (the query by name, a lone value for each name but arrays for array fields, or the JSON body;
 * then the path's parameters over them), strings coerced where the library's coercion applies, and
 * the procedure called as tRPC's own adapters call it. A failure comes back as the error thrown
 * (the library's `getErrorFromUnknown`), for the handler to render as the spec's error envelope
 * (README, The API); a success as its JSON text, with the status of the route's success.
 * tests/api/openapi-adapter.contract.test.ts pins that behaviour on a router of its own.
 *
 * This is the library's `createOpenApiNodeHttpHandler` made of its own exported parts, without
 * what a call through it cost each time and our procedures never use (bench/README.md,
 * "Allocations on the hot path"): a stand-in fetch Request for its abort signal, a response to
 * capture, a tRPC caller proxy, and its coercion pass over the input schema, which builds new zod
 * schemas on every call; that pass changes the schema objects themselves, once for all, so here it
 * runs on a procedure's first call.
 */

/** One request handed to the adapter. */
export interface OpenApiRequest<TContextOptions> {
  method: string;
  /** The path below the API's prefix, with the query ("/blogs?page=2"). */
  pathAndQuery: string;
  /** The body, already read and parsed as JSON; undefined for a method without one. */
  body: unknown;
  /** What the procedure's context is created from. */
  contextOptions: TContextOptions;
  /** Aborted when the client goes away, for a procedure that stops its work then (tRPC's `signal`). */
  signal?: AbortSignal;
}

export type OpenApiOutcome =
  | { ok: true; status: number; headers: Headers; body: string | undefined }
  | { ok: false; error: unknown };

/** A success's headers: its content type alone, as the library set it. Shared by every call: read, never written. */
const JSON_RESPONSE_HEADERS = new Headers({ "content-type": "application/json" });

/** What a procedure's input needs, worked out at its first call: the schema's shape does not change. */
interface InputPlan {
  /** No input at all (a void-like schema). */
  none: boolean;
  /** Fields whose query value is always an array. */
  arrayFields: string[];
}

interface OpenApiAdapterOptions<TRouter extends OpenApiRouter & AnyRouter, TContextOptions> {
  router: TRouter;
  createContext: (options: TContextOptions) => inferRouterContext<TRouter> | Promise<inferRouterContext<TRouter>>;
  /** The status of a procedure's success, by its path in the router ("blogs.create"). */
  successStatus: (procedurePath: string) => number;
}

/** Builds the routing once (the library's procedure cache); returns one call per request. */
export function createOpenApiAdapter<TRouter extends OpenApiRouter & AnyRouter, TContextOptions>(
  options: OpenApiAdapterOptions<TRouter, TContextOptions>,
): (request: OpenApiRequest<TContextOptions>) => Promise<OpenApiOutcome> {
  const getProcedure = createProcedureCache(options.router);
  const plans = new Map<OpenApiProcedure, InputPlan>();

  return async ({ method, pathAndQuery, body, contextOptions, signal }) => {
    // As the library: the URL and the route before anything that answers a failure.
    const url = new URL(pathAndQuery.startsWith("/") ? `http://127.0.0.1${pathAndQuery}` : pathAndQuery);
    // Any method string: one the library does not know finds no route.
    const routed = method as Parameters<typeof getProcedure>[0];
    const found = getProcedure(routed, normalizePath(url.pathname));
    try {
      if (!found?.procedure) {
        // The library's answer to a HEAD it cannot route (a warm-up); anything else is not found.
        if (method === "HEAD") return { ok: true, status: 204, headers: JSON_RESPONSE_HEADERS, body: undefined };
        throw new TRPCError({ message: "Not found", code: "NOT_FOUND" });
      }
      const { procedure, pathInput } = found;
      const useBody = acceptsRequestBody(routed);
      // The handler declares a body it hands over as JSON; a method with a body needs one.
      if (useBody && body === undefined) throw new TRPCError({ code: "UNSUPPORTED_MEDIA_TYPE", message: "Missing content-type header" });
      const plan = plans.get(procedure.procedure) ?? planInput(procedure.procedure, plans);
      let input: Record<string, unknown> | undefined;
      if (!plan.none) {
        input = { ...(useBody ? (body as object) : getQuery({} as IncomingMessage, url)), ...pathInput };
        if (!useBody) for (const field of plan.arrayFields) if (input[field] !== undefined && !Array.isArray(input[field])) input[field] = [input[field]];
      }
      const ctx = await options.createContext(contextOptions);
      const call = procedure.procedure as unknown as (opts: {
        path: string;
        getRawInput: () => Promise<unknown>;
        ctx: unknown;
        type: string;
        signal: AbortSignal | undefined;
        batchIndex: number;
      }) => Promise<unknown>;
      const data = await call({ path: procedure.path, getRawInput: async () => input, ctx, type: procedure.type, signal, batchIndex: 0 });
      return { ok: true, status: options.successStatus(procedure.path), headers: JSON_RESPONSE_HEADERS, body: JSON.stringify(data) };
    } catch (cause) {
      return { ok: false, error: getErrorFromUnknown(cause) };
    }
  };
}

/** A procedure's input plan, made at its first call, with the library's coercion applied to its schema. */
function planInput(procedure: OpenApiProcedure, plans: Map<OpenApiProcedure, InputPlan>): InputPlan {
  const schema = unwrapZodType(getInputOutputParsers(procedure).inputParser, true);
  const plan: InputPlan = { none: instanceofZodTypeLikeVoid(schema), arrayFields: [] };
  if (zodSupportsCoerce && instanceofZodTypeObject(schema)) {
    for (const [key, shape] of Object.entries(schema.shape)) {
      if (shape instanceof ZodArray || (instanceofZodTypeOptional(shape) && shape.unwrap() instanceof ZodArray)) plan.arrayFields.push(key);
    }
    coerceSchema(schema);
  }
  plans.set(procedure, plan);
  return plan;
}
