import "server-only";
import type { IncomingMessage } from "node:http";
import { TRPCError, type AnyProcedure } from "@trpc/server";
import { ZodArray } from "zod";
import {
  acceptsRequestBody,
  coerceSchema,
  getErrorFromUnknown,
  getInputOutputParsers,
  getQuery,
  instanceofZodTypeLikeVoid,
  instanceofZodTypeObject,
  instanceofZodTypeOptional,
  unwrapZodType,
  zodSupportsCoerce,
  type OpenApiMethod,
  type OpenApiProcedure,
} from "trpc-to-openapi";
import type { RouteProcedure } from "./routes";

/**
 * trpc-to-openapi as /api/v1 uses it, once the request is routed (./routes.ts, the one routing:
 * the procedures' OpenAPI paths): its input read as the library's handler reads it (the query by
 * name, a lone value for each name but arrays for array fields, or the JSON body; then the path's
 * parameters over them), strings coerced where the library's coercion applies, and the procedure
 * called as tRPC's own adapters call it. A failure comes back as the error thrown (the library's
 * `getErrorFromUnknown`), for the handler to render as the spec's error envelope (README, The
 * API); a success as its JSON text. tests/api/openapi-adapter.contract.test.ts pins that behaviour
 * on a router of its own.
 *
 * This is the library's `createOpenApiNodeHttpHandler` made of its own exported parts, without
 * what a call through it cost each time and our procedures never use (bench/README.md,
 * "Allocations on the hot path"): a second routing, a stand-in fetch Request for its abort signal,
 * a response to capture, a tRPC caller proxy, and its coercion pass over the input schema, which
 * builds new zod schemas on every call; that pass changes the schema objects themselves, once for
 * all, so here it runs on a procedure's first call.
 */

/** One routed request handed to the adapter. */
export interface OpenApiRequest<TContextOptions> {
  /** The procedure its route names (./routes.ts). */
  procedure: RouteProcedure;
  /** The path's parameters, as the route captured them. */
  pathInput: Record<string, string>;
  method: string;
  /** Its query, read by name. */
  url: URL;
  /** The body, already read and parsed as JSON; undefined for a method without one. */
  body: unknown;
  /** What the procedure's context is created from. */
  contextOptions: TContextOptions;
  /** Aborted when the client goes away, for a procedure that stops its work then (tRPC's `signal`). */
  signal?: AbortSignal;
}

export type OpenApiOutcome = { ok: true; body: string } | { ok: false; error: unknown };

/** What a procedure's input needs, worked out at its first call: the schema's shape does not change. */
interface InputPlan {
  /** No input at all (a void-like schema). */
  none: boolean;
  /** Fields whose query value is always an array. */
  arrayFields: string[];
}

/** One call per routed request, each procedure's input planned at its first. */
export function createOpenApiAdapter<TContextOptions, TContext>(options: {
  createContext: (options: TContextOptions) => TContext | Promise<TContext>;
}): (request: OpenApiRequest<TContextOptions>) => Promise<OpenApiOutcome> {
  const plans = new Map<AnyProcedure, InputPlan>();

  return async ({ procedure: { path, procedure }, pathInput, method, url, body, contextOptions, signal }) => {
    try {
      const useBody = acceptsRequestBody(method as OpenApiMethod);
      // The handler declares a body it hands over as JSON; a method with a body needs one.
      if (useBody && body === undefined) throw new TRPCError({ code: "UNSUPPORTED_MEDIA_TYPE", message: "Missing content-type header" });
      const plan = plans.get(procedure) ?? planInput(procedure, plans);
      let input: Record<string, unknown> | undefined;
      if (!plan.none) {
        input = { ...(useBody ? (body as object) : getQuery({} as IncomingMessage, url)), ...pathInput };
        if (!useBody) for (const field of plan.arrayFields) if (input[field] !== undefined && !Array.isArray(input[field])) input[field] = [input[field]];
      }
      const ctx = await options.createContext(contextOptions);
      const call = procedure as unknown as (opts: {
        path: string;
        getRawInput: () => Promise<unknown>;
        ctx: unknown;
        type: string;
        signal: AbortSignal | undefined;
        batchIndex: number;
      }) => Promise<unknown>;
      const data = await call({ path, getRawInput: async () => input, ctx, type: procedure._def.type, signal, batchIndex: 0 });
      return { ok: true, body: JSON.stringify(data) };
    } catch (cause) {
      return { ok: false, error: getErrorFromUnknown(cause) };
    }
  };
}

/** A procedure's input plan, made at its first call, with the library's coercion applied to its schema. */
function planInput(procedure: AnyProcedure, plans: Map<AnyProcedure, InputPlan>): InputPlan {
  const schema = unwrapZodType(getInputOutputParsers(procedure as OpenApiProcedure).inputParser, true);
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
