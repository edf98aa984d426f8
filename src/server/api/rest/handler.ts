import { createOpenApiFetchHandler } from "trpc-to-openapi";
import { ApiError, errorEnvelope, toApiError } from "../errors";
import { appRouter } from "../root";
import { getDb } from "~/server/db";
import { authenticateApiKey } from "~/server/keys/authenticate";
import { recordApiRequest } from "~/server/usage/record-request";
import { trackUsageWrite } from "~/server/usage/pending-writes";
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
export async function handleApiRequest(req: Request, { afterResponse }: ApiRequestOptions): Promise<Response> {
  const url = new URL(req.url);
  const path = url.pathname.slice(API_PREFIX.length) || "/";
  const resHeaders = new Headers({ "X-Request-Id": crypto.randomUUID(), ...CORS_HEADERS });

  if (req.method === "OPTIONS") {
    return new Response(null, { status: 204, headers: mergeHeaders(resHeaders, PREFLIGHT_HEADERS) });
  }
  const match = matchRoute(req.method, path);
  if (!match || "allowed" in match) await reportRateOfPresentedKey(req, url, resHeaders);
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
    const record = { accountId: apiKey.accountId, keyId: apiKey.id, method: req.method, path: match.route.template };
    afterResponse(trackUsageWrite(apiKey.accountId, () => recordApiRequest(getDb(), { ...record, status: response.status, at: new Date() })));
  }
  return response;
}

/** Runs the request's procedure through trpc-to-openapi; any failure becomes the spec's error envelope. */
async function callProcedure(req: Request, route: RestRoute, context: RequestContextOptions): Promise<Response> {
  let failure: unknown;
  const response = await createOpenApiFetchHandler({
    endpoint: API_PREFIX,
    router: appRouter,
    req,
    createContext: () => createTRPCContext(context),
    onError: ({ error }) => {
      failure = error;
    },
  });
  if (failure !== undefined) return errorResponse(toApiError(failure), context.resHeaders);
  return new Response(response.body, { status: route.successStatus, headers: mergeHeaders(context.resHeaders, response.headers) });
}

/**
 * Requests that reach no procedure still report the rate-limit state of the account their key
 * identifies, without consuming it.
 */
async function reportRateOfPresentedKey(req: Request, url: URL, resHeaders: Headers): Promise<void> {
  const presented = requestApiKey(req.headers, url);
  if (!presented) return;
  try {
    const lookup = await authenticateApiKey(getDb(), presented);
    if ("key" in lookup) await reportAccountRate(resHeaders, lookup.key);
  } catch (error) {
    // Only headers are at stake here: the answer (404 or 405) stands without them.
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
