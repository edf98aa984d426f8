import { TRPCError } from "@trpc/server";
import { createOpenApiNodeHttpHandler } from "trpc-to-openapi";
import { ApiError, errorEnvelope, toApiError } from "../errors";
import { appRouter } from "../root";
import { getDb } from "~/server/db";
import { authenticateApiKey } from "~/server/keys/authenticate";
import { trackUsageWrite } from "~/server/usage/pending-writes";
import { usageBatcher } from "~/server/usage/usage-batch";
import { requestApiKey } from "../middleware/api-key";
import { reportAccountRate } from "../middleware/rate-limit";
import { createTRPCContext, type RequestContextOptions } from "../trpc";
import { openApiDocument } from "./openapi";
import { carriesBody, withCheckedBody } from "./request-body";
import { matchRoute, OPENAPI_DOCUMENT_PATH, type RestRoute } from "./routes";

export const API_PREFIX = "/api/v1";

const CORS_HEADERS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Expose-Headers":
    "X-Request-Id, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, Idempotent-Replayed",
};
const PREFLIGHT_HEADERS = {
  "Access-Control-Allow-Methods": "GET, POST, PUT, PATCH, DELETE, OPTIONS",
  "Access-Control-Allow-Headers": "Content-Type, Authorization, X-API-Key, Idempotency-Key",
  "Access-Control-Max-Age": "86400",
};

export interface ApiRequestOptions {
  afterResponse: RequestContextOptions["afterResponse"];
}

/**
 * The one entry of /api/v1: routes the request to its procedure through trpc-to-openapi and
 * shapes every answer: the spec's envelopes, status codes, request id, CORS and rate-limit headers.
 */
export async function handleApiRequest(req: Request, options: ApiRequestOptions): Promise<Response> {
  const response = await routeApiRequest(req, options);
  // Answers given before the procedure's own checks (404, 405, 413, 415, malformed JSON, the
  // OpenAPI document) still report the state of the account a valid key identifies.
  if (!response.headers.has("X-RateLimit-Limit")) await reportRateOfPresentedKey(req, response.headers);
  return response;
}

async function routeApiRequest(req: Request, { afterResponse }: ApiRequestOptions): Promise<Response> {
  const url = new URL(req.url);
  const path = url.pathname.slice(API_PREFIX.length) || "/";
  const resHeaders = new Headers({ "X-Request-Id": crypto.randomUUID(), ...CORS_HEADERS });

  if (req.method === "OPTIONS") {
    return new Response(null, { status: 204, headers: mergeHeaders(resHeaders, PREFLIGHT_HEADERS) });
  }
  const match = matchRoute(req.method, path);
  if (!match) {
    return errorResponse(new ApiError("RESOURCE_NOT_FOUND", `No endpoint ${req.method} ${API_PREFIX}${path}`), resHeaders);
  }
  if ("allowed" in match) {
    resHeaders.set("Allow", match.allowed.join(", "));
    return errorResponse(
      new ApiError("METHOD_NOT_ALLOWED", `Method ${req.method} is not allowed on ${API_PREFIX}${path}`, `Allowed: ${match.allowed.join(", ")}`),
      resHeaders,
    );
  }
  if (match.route.template === OPENAPI_DOCUMENT_PATH) {
    return Response.json(openApiDocument(publicOrigin(req, url)), { headers: resHeaders });
  }

  if (carriesBody(req.method)) {
    try {
      req = await withCheckedBody(req);
    } catch (error) {
      return errorResponse(toApiError(error), resHeaders);
    }
  }
  const outcome: RequestContextOptions["outcome"] = {};
  const response = await callProcedure(req, match.route, { headers: req.headers, url, resHeaders, afterResponse, outcome });
  const { apiKey } = outcome;
  if (apiKey) {
    // Added to the in-memory batch now (no database work on the request's path), written within
    // a second; the task settles when it is, so analytics reads can wait for it.
    const written = usageBatcher(getDb).record({
      accountId: apiKey.accountId,
      keyId: apiKey.id,
      method: req.method,
      path: match.route.template,
      status: response.status,
      at: new Date(),
    });
    afterResponse(trackUsageWrite(apiKey.accountId, () => written));
  }
  return response;
}

/** What one request hands to the shared trpc-to-openapi handler, and what it gets back. */
interface ProcedureCall {
  context: RequestContextOptions;
  failure?: unknown;
}

const procedureCalls = new WeakMap<object, ProcedureCall>();

/**
 * trpc-to-openapi's node handler, built once: its fetch adapter (createOpenApiFetchHandler)
 * rebuilds it, and with it the router's procedure cache, on every request.
 */
const openApiHandler = createOpenApiNodeHttpHandler({
  router: appRouter,
  createContext: ({ req }: { req: object }) => createTRPCContext(procedureCalls.get(req)!.context),
  onError: ({ error, req }: { error: unknown; req: object }) => {
    procedureCalls.get(req)!.failure = error;
  },
} as never) as unknown as (req: Request, res: NodeLikeResponse) => Promise<void>;

interface NodeLikeResponse {
  statusCode: number;
  setHeader(name: string, value: string | string[]): void;
  end(body?: string): void;
}

/** Runs the request's procedure through trpc-to-openapi; any failure becomes the spec's error envelope. */
async function callProcedure(req: Request, route: RestRoute, context: RequestContextOptions): Promise<Response> {
  const call: ProcedureCall = { context };
  const body = carriesBody(req.method) ? await jsonBody(req) : undefined;
  // What the fetch adapter hands the node handler: the request, its URL without the /api/v1
  // prefix, and its parsed JSON body (the body was checked to be JSON beforehand).
  const url = req.url.replace(API_PREFIX, "");
  const proxied = new Proxy(req, {
    get(target, prop) {
      if (prop === "url") return url;
      if (prop === "body") {
        if (body && !body.ok) throw new TRPCError({ code: "PARSE_ERROR", message: "Failed to parse request body", cause: body.cause });
        return body ? body.data : target.body;
      }
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  procedureCalls.set(proxied, call);
  const resHeaders = new Headers();
  // The status comes from the route (trpc-to-openapi answers 200 for every success).
  const answer = await new Promise<{ body?: string }>((resolve, reject) => {
    const res: NodeLikeResponse = {
      statusCode: 200,
      setHeader(name, value) {
        if (typeof value === "string") resHeaders.set(name, value);
        else for (const v of value) resHeaders.append(name, v);
      },
      end(text) {
        resolve({ body: text });
      },
    };
    openApiHandler(proxied, res).catch(reject);
  });
  if (call.failure !== undefined) return errorResponse(toApiError(call.failure), context.resHeaders);
  return new Response(answer.body, { status: route.successStatus, headers: mergeHeaders(context.resHeaders, resHeaders) });
}

/**
 * The body as trpc-to-openapi's fetch adapter reads it: JSON.parse of the text (an empty body is
 * malformed). withCheckedBody has already refused anything not declared as JSON.
 */
async function jsonBody(req: Request): Promise<{ ok: true; data: unknown } | { ok: false; cause: unknown }> {
  try {
    return { ok: true, data: JSON.parse(await req.text()) };
  } catch (cause) {
    return { ok: false, cause };
  }
}

/** Reports, without consuming, the rate-limit state of the account the request's key identifies. */
async function reportRateOfPresentedKey(req: Request, resHeaders: Headers): Promise<void> {
  const presented = requestApiKey(req.headers, new URL(req.url));
  if (!presented) return;
  try {
    const lookup = await authenticateApiKey(getDb(), presented);
    if ("key" in lookup) await reportAccountRate(resHeaders, lookup.key);
  } catch (error) {
    // Only headers are at stake here: the answer stands without them.
    console.error("rate-limit report failed:", error);
  }
}

/** The origin clients used, as proxies (Vercel included) report it. */
function publicOrigin(req: Request, url: URL): string {
  const host = req.headers.get("x-forwarded-host") ?? req.headers.get("host") ?? url.host;
  const protocol = req.headers.get("x-forwarded-proto")?.split(",")[0] ?? url.protocol.replace(":", "");
  return `${protocol}://${host}`;
}

function errorResponse(error: ApiError, headers: Headers): Response {
  if (error.apiCode === "SERVICE_UNAVAILABLE") headers.set("Retry-After", "5");
  return Response.json(errorEnvelope(error), { status: error.httpStatus(), headers });
}

function mergeHeaders(target: Headers, extra: HeadersInit): Headers {
  new Headers(extra).forEach((value, name) => target.set(name, value));
  return target;
}
