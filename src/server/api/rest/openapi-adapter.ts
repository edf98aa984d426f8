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
 */

/** One request handed to the library. */
export interface OpenApiRequest<TContextOptions> {
  /** The Node request; its url, body and query are rewritten to what the library reads. */
  req: IncomingMessage;
  /** The client's response, only followed: the procedure is aborted if it closes first. */
  res: ServerResponse;
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

/** The members of a Node response the library uses: the status, headers, body and the close event (its abort signal). */
interface CapturedResponse {
  statusCode: number;
  readonly writableEnded: boolean;
  setHeader(name: string, value: string | number | readonly string[]): void;
  end(body?: string): void;
  once(event: string, listener: () => void): void;
  off(event: string, listener: () => void): void;
}

/** The members of a Node request the library reads, beyond IncomingMessage's own. */
type ForwardedRequest = IncomingMessage & { body?: unknown; query?: unknown };

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
  const calls = new WeakMap<IncomingMessage, { contextOptions: TContextOptions; failure?: unknown }>();
  // Built over the library's own router type: its option types do not resolve for a generic router.
  const handler = createOpenApiNodeHttpHandler<OpenApiRouter, ForwardedRequest, ServerResponse>({
    router: options.router,
    createContext: ({ req }) => options.createContext(calls.get(req)!.contextOptions),
    responseMeta: ({ paths, errors }) => (errors.length === 0 && paths?.[0] ? { status: options.successStatus(paths[0]) } : {}),
    onError: ({ error, req }) => {
      calls.get(req)!.failure = error;
    },
  });

  return async ({ req, res, pathAndQuery, body, contextOptions }) => {
    const call: { contextOptions: TContextOptions; failure?: unknown } = { contextOptions };
    calls.set(req, call);
    // What the library reads: the URL without the prefix, the body already parsed (declared JSON in
    // the only content-type spelling it recognises), and the query from that URL (Next's parsed
    // `req.query` also carries the catch-all's `path`).
    const forwarded: ForwardedRequest = req;
    forwarded.url = pathAndQuery;
    forwarded.query = undefined;
    if (body !== undefined) {
      forwarded.body = body;
      forwarded.headers["content-type"] = "application/json";
    }
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
        get writableEnded() {
          return res.writableEnded;
        },
        setHeader(name, value) {
          if (typeof value === "string" || typeof value === "number") headers.set(name, String(value));
          else for (const v of value) headers.append(name, v);
        },
        end: resolve,
        once: (event, listener) => void res.once(event, listener),
        off: (event, listener) => void res.off(event, listener),
      };
      // The stand-in carries only the members above, all the library touches.
      handler(forwarded, captured as unknown as ServerResponse).catch(reject);
    });
    if (call.failure !== undefined) return { ok: false, error: call.failure };
    return { ok: true, status, headers, body: text };
  };
}
