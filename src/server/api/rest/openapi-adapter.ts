import "server-only";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AnyRouter, inferRouterContext } from "@trpc/server";
import { createOpenApiNodeHttpHandler, type OpenApiRouter } from "trpc-to-openapi";

/**
 * trpc-to-openapi as /api/v1 uses it: the library routes a request to its procedure, reads the
 * input (path, query, body), coerces query strings and calls the procedure. Its answer is captured
 * in memory rather than written to the client, because the error body it writes is its own
 * (`{ message, code, issues }`, the message "Input validation failed" for every invalid input),
 * not the spec's error envelope (README, The API): a failure comes back as the error thrown, for
 * the handler to render; a success as written, its status set through the library's
 * `responseMeta`. tests/api/openapi-adapter.contract.test.ts pins the behaviour relied on here.
 *
 * The library is handed a stand-in for a fetch `Request` (its prototype, with the members it reads
 * as own values) rather than Node's request: given a Node request, it would build a whole fetch
 * Request per call (headers copied, an AbortController, listeners on the socket) only to take its
 * abort signal, which our procedures never see (their context comes from `createContext` alone).
 * That was a third of the CPU of a list call through the library (bench/README.md, "Where the app's time goes").
 */

/** One request handed to the library. */
export interface OpenApiRequest<TContextOptions> {
  method: string;
  /** The path below the API's prefix, with the query ("/blogs?page=2"). */
  pathAndQuery: string;
  /** The body, already read and parsed as JSON; undefined for a method without one. */
  body: unknown;
  /** What the procedure's context is created from. */
  contextOptions: TContextOptions;
}

export type OpenApiOutcome =
  | { ok: true; status: number; headers: Headers; body: string | undefined }
  | { ok: false; error: unknown };

/** The members of a Node response the library uses: the status, headers and body. */
interface CapturedResponse {
  statusCode: number;
  setHeader(name: string, value: string | number | readonly string[]): void;
  end(body?: string): void;
}

/**
 * The members of a request the library reads when the request is a fetch Request: the method, the
 * URL (path and query), the content type, the body already parsed, the query it parses itself, the
 * abort signal.
 */
interface ForwardedRequest {
  method: string;
  url: string;
  headers: Headers;
  body: unknown;
  query: unknown;
  signal: AbortSignal;
}

/** The signal every call gets: nothing of ours listens to it (see above). */
const NEVER_ABORTED = new AbortController().signal;
/** The headers the library reads (only the content type), shared by every call: it never writes them. */
const NO_BODY_HEADERS = new Headers();
// Declared JSON in the only content-type spelling the library recognises.
const JSON_BODY_HEADERS = new Headers({ "content-type": "application/json" });

function forwardedRequest(method: string, pathAndQuery: string, body: unknown): ForwardedRequest {
  const own = (value: unknown) => ({ value, writable: true, enumerable: true });
  // Own properties over Request's getters; `query` and `body` writable, as the library sets them.
  return Object.create(Request.prototype, {
    method: own(method),
    url: own(pathAndQuery),
    headers: own(body === undefined ? NO_BODY_HEADERS : JSON_BODY_HEADERS),
    body: own(body),
    query: own(undefined),
    signal: own(NEVER_ABORTED),
  }) as ForwardedRequest;
}

interface OpenApiAdapterOptions<TRouter extends OpenApiRouter & AnyRouter, TContextOptions> {
  router: TRouter;
  createContext: (options: TContextOptions) => inferRouterContext<TRouter> | Promise<inferRouterContext<TRouter>>;
  /** The status of a procedure's success, by its path in the router ("blogs.create"). */
  successStatus: (procedurePath: string) => number;
}

/** Builds the library's handler once (with it, the router's procedure cache); returns one call per request. */
export function createOpenApiAdapter<TRouter extends OpenApiRouter & AnyRouter, TContextOptions>(
  options: OpenApiAdapterOptions<TRouter, TContextOptions>,
): (request: OpenApiRequest<TContextOptions>) => Promise<OpenApiOutcome> {
  /** What a request hands to the shared handler, and what it gets back, found by the request. */
  const calls = new WeakMap<object, { contextOptions: TContextOptions; failure?: unknown }>();
  // Built over the library's own router type: its option types do not resolve for a generic router.
  const handler = createOpenApiNodeHttpHandler<OpenApiRouter, IncomingMessage, ServerResponse>({
    router: options.router,
    createContext: ({ req }) => options.createContext(calls.get(req)!.contextOptions),
    responseMeta: ({ paths, errors }) => (errors.length === 0 && paths?.[0] ? { status: options.successStatus(paths[0]) } : {}),
    onError: ({ error, req }) => {
      calls.get(req)!.failure = error;
    },
  });

  return async ({ method, pathAndQuery, body, contextOptions }) => {
    const call: { contextOptions: TContextOptions; failure?: unknown } = { contextOptions };
    const forwarded = forwardedRequest(method, pathAndQuery, body);
    calls.set(forwarded, call);
    const headers = new Headers();
    let status = 200;
    const text = await new Promise<string | undefined>((resolve, reject) => {
      const captured: CapturedResponse = {
        set statusCode(value: number) {
          status = value;
        },
        get statusCode() {
          return status;
        },
        setHeader(name, value) {
          if (typeof value === "string" || typeof value === "number") headers.set(name, String(value));
          else for (const v of value) headers.append(name, v);
        },
        end: resolve,
      };
      // The stand-ins carry only the members above, all the library touches.
      handler(forwarded as unknown as IncomingMessage, captured as unknown as ServerResponse).catch(reject);
    });
    if (call.failure !== undefined) return { ok: false, error: call.failure };
    return { ok: true, status, headers, body: text };
  };
}
