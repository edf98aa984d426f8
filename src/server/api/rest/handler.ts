import "server-only";
import type { IncomingMessage, ServerResponse } from "node:http";
import { ApiError, errorEnvelope, toApiError } from "../errors";
import { clientIp } from "~/server/http/client-ip";
import { inRequestScope } from "~/server/http/request-scope";
import { getSqlPool } from "~/server/db";
import { publicApiBaseUrl } from "~/server/http/public-origin";
import { API_CORS_HEADERS, API_SECURITY_HEADERS, CACHE_CONTROL_REVALIDATED } from "~/server/http/security-headers";
import { keyUseDue, recordKeyUse, type AuthenticatedKey } from "~/server/keys/authenticate";
import { consumeKeyBudget, verifyApiKey, type KeyVerification } from "~/server/keys/verify-api-key";
import { log, withRequestId } from "~/server/runtime/log";
import { trackUsageWrite } from "~/server/usage/pending-writes";
import { loggedQuery, type ApiRequestRecord } from "~/server/usage/record-request";
import { usageBatcher } from "~/server/usage/usage-batch";
import { entityTag, headerNamesTag, namesEntityTagsOnly } from "~/server/http/entity-tags";
import { rateLimitReport, setRateLimitHeaders } from "../rate-limit-headers";
import { createTRPCContext, type RequestContextOptions } from "../trpc";
import { keyRefusal } from "./key-refusals";
import { createOpenApiAdapter } from "./openapi-adapter";
import { openApiDocument } from "./openapi";
import { readImageBody } from "./image-body";
import { spoolImportUpload, type SpooledImport } from "../import-upload";
import { carriesBody, readJsonBody } from "./request-body";
import { matchRoute, RATE_LIMIT_PATH, type RestRoute, type RoutedRequest } from "./routes";

export const API_PREFIX = "/api/v1";

const PREFLIGHT_HEADERS = {
  "Access-Control-Allow-Methods": "GET, POST, PUT, PATCH, DELETE, OPTIONS",
  "Access-Control-Allow-Headers": "Content-Type, Authorization, X-API-Key, Idempotency-Key, If-None-Match, If-Match",
  "Access-Control-Max-Age": "86400",
};

/** Headers every answer carries, as Node's response takes them (lower-case, as the rest). */
const CORS_HEADER_ENTRIES = lowerCaseEntries(API_CORS_HEADERS);
const SECURITY_HEADER_ENTRIES = lowerCaseEntries(API_SECURITY_HEADERS);

/** What the handler answers: written to the Node response once complete. */
interface ApiAnswer {
  status: number;
  headers: Headers;
  body?: string;
  /** An error answer's envelope code, for the request log. */
  errorCode?: string;
}

/** The parts of a request every step reads. */
interface ApiRequest {
  method: string;
  /** The path below /api/v1 ("/blogs"). */
  path: string;
  url: URL;
  headers: Headers;
  /** The client's address (src/server/http/client-ip.ts), computed once; null when it cannot be known. */
  clientIp: string | null;
}

/** What the access log line says of a request besides its method, status and duration. */
interface ServedRequest {
  /** The route template ("/blogs/{blogId}"); never the raw path or query, which may carry a key. */
  route?: string;
  keyId?: string;
  /** The key whose account the request counts for in usage and the request log, once it has an answer. */
  counted?: AuthenticatedKey;
}

/**
 * The one entry of /api/v1: routes the request to its procedure (./routes.ts), calls it through
 * trpc-to-openapi (./openapi-adapter.ts) and shapes every answer: the envelopes of README's The API, status codes, request id, CORS and rate-limit headers.
 * It works on Node's request and response, as both its callers have them: the production server
 * (src/server/http/server.ts) and, on Vercel and under `next dev`, the Pages Router API route.
 *
 * Once the answer is sent, it starts the work scheduled for after it ("Last Used", usage) and
 * returns `afterResponse`, which settles when that work has (serverless hosts wait for it).
 */
export function handleApiRequest(req: IncomingMessage, res: ServerResponse): Promise<{ afterResponse: Promise<void> }> {
  const requestId = crypto.randomUUID();
  // Every log line of the request, the work after its response included, carries its id; the
  // client's address is in its scope for the audit log (docs/audit-log.md).
  const ip = clientIp({ headers: req.headers, socketAddress: req.socket?.remoteAddress });
  return inRequestScope({ clientIp: ip }, () => withRequestId(requestId, () => answerApiRequest(req, res, requestId)));
}

async function answerApiRequest(req: IncomingMessage, res: ServerResponse, requestId: string): Promise<{ afterResponse: Promise<void> }> {
  const started = performance.now();
  const request = apiRequest(req);
  // Only the headers of this answer: the fixed ones go straight to Node's response.
  const resHeaders = new Headers();
  const tasks: (() => Promise<unknown>)[] = [];
  const served: ServedRequest = {};
  let answer: ApiAnswer;
  try {
    answer = await routeApiRequest(req, request, resHeaders, (task) => void tasks.push(task), served);
  } catch (error) {
    answer = errorAnswer(toApiError(error), resHeaders);
  }
  const { route = null, keyId = null, counted } = served;
  const durationMs = Math.round(performance.now() - started);
  // Before the answer is sent: the usage write must be pending before the client can read analytics.
  if (counted && route) {
    const logged = { method: request.method, path: route, query: loggedQuery(request.url.search), status: answer.status, errorCode: answer.errorCode ?? null };
    tasks.push(recordKeyedRequest(counted, { ...logged, latencyMs: durationMs, requestId }));
  }
  res.statusCode = answer.status;
  // The answer's own headers win over CORS's; the security headers win over the answer's. Every
  // answer is no-store but a GET's carrying an ETag, which its client may keep and revalidate.
  res.setHeader("x-request-id", requestId);
  for (const [name, value] of CORS_HEADER_ENTRIES) res.setHeader(name, value);
  answer.headers.forEach((value, name) => res.setHeader(name, value));
  for (const [name, value] of SECURITY_HEADER_ENTRIES) res.setHeader(name, value);
  if (answer.headers.has("etag")) res.setHeader("cache-control", CACHE_CONTROL_REVALIDATED);
  res.end(answer.body);
  log.info({ method: request.method, route, status: answer.status, durationMs, keyId }, "request");
  const afterResponse = Promise.all(tasks.map((task) => task().catch((error: unknown) => log.error({ err: error }, "after-response task failed"))));
  return { afterResponse: afterResponse.then(() => undefined) };
}

function apiRequest(req: IncomingMessage): ApiRequest {
  // Only the path and query matter here.
  const url = new URL(req.url ?? "/", "http://localhost");
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  const ip = clientIp({ headers, socketAddress: req.socket?.remoteAddress });
  return { method: req.method ?? "GET", path: url.pathname.slice(API_PREFIX.length) || "/", url, headers, clientIp: ip };
}

async function routeApiRequest(
  req: IncomingMessage,
  request: ApiRequest,
  resHeaders: Headers,
  afterResponse: RequestContextOptions["afterResponse"],
  served: ServedRequest,
): Promise<ApiAnswer> {
  const { method, path, url } = request;

  if (method === "OPTIONS") {
    return { status: 204, headers: mergeHeaders(resHeaders, PREFLIGHT_HEADERS) };
  }
  const match = matchRoute(method, path);
  const operation = match && "route" in match && match.route.permission ? { permission: match.route.permission } : null;
  // The one check of the key, right after routing and before the body (README, The API). A GET
  // revalidating entity tags has its unit consumed only once its answer is known not to be a 304.
  const revalidation = method === "GET" && namesEntityTagsOnly(request.headers.get("if-none-match"));
  const verification = operation ? await verifyApiKey(request, operation, { consume: !revalidation }) : await identifyKey(request);
  if (!operation && verification.rateLimit) setRateLimitHeaders(resHeaders, verification.rateLimit);
  if (!match) {
    return errorAnswer(new ApiError("RESOURCE_NOT_FOUND", `No endpoint ${method} ${API_PREFIX}${path}`), resHeaders);
  }
  if ("allowed" in match) {
    resHeaders.set("Allow", match.allowed.join(", "));
    return errorAnswer(
      new ApiError("METHOD_NOT_ALLOWED", `Method ${method} is not allowed on ${API_PREFIX}${path}`, `Allowed: ${match.allowed.join(", ")}`),
      resHeaders,
    );
  }
  served.route = match.route.template;
  if (match.route.template === RATE_LIMIT_PATH) return rateLimitAnswer(verification, resHeaders, served);
  if (!operation) {
    return jsonAnswer(200, resHeaders, openApiDocument(publicApiBaseUrl));
  }
  const { key } = verification;
  served.keyId = key?.id;
  const answer = await answerOperation(req, match, verification, revalidation, { headers: request.headers, url, resHeaders, afterResponse });
  served.counted = key;
  return answer;
}

/**
 * An operation's answer once its key is checked: the refusal, or the procedure's answer to the
 * body. `budgetPending`: the check only looked at the budget (a GET revalidating entity tags).
 */
async function answerOperation(
  req: IncomingMessage,
  { route, pathInput }: RoutedRequest,
  verification: KeyVerification,
  budgetPending: boolean,
  context: Omit<RequestContextOptions, "caller">,
): Promise<ApiAnswer> {
  const refusal = keyRefusal(verification, route.permission!, context.resHeaders);
  if (refusal) return errorAnswer(refusal, context.resHeaders);
  let body: unknown;
  let spooled: SpooledImport | undefined;
  if (carriesBody(req.method ?? "GET")) {
    try {
      // No body at all is an empty object: the operation's path parameters are its whole input.
      if (route.rawBody === "import") {
        spooled = await spoolImportUpload(req.headers, req);
        body = { file: spooled.file, oldUrl: spooled.oldUrl };
      } else body = route.rawBody === "image" ? await readImageBody(req) : ((await readJsonBody(req)) ?? {});
    } catch (error) {
      return errorAnswer(toApiError(error), context.resHeaders);
    }
  }
  // An upload's processing stops when its client goes away (docs/security.md, Upload fairness).
  const leaving = route.rawBody === "image" ? clientLeaving(req) : undefined;
  const answer = await callProcedure(
    { route, pathInput, method: req.method ?? "GET", body },
    { ...context, caller: { kind: "apiKey", key: verification.key! }, successStatus: {} },
    leaving?.signal,
  ).finally(async () => {
    leaving?.stop();
    await spooled?.remove();
  });
  if (route.method !== "GET") return answer;
  return answerConditionally(answer, { ifNoneMatch: context.headers.get("if-none-match"), budgetPending, key: verification.key!, route });
}

/**
 * A GET's answer with its validator (docs/api.md, conditional requests): a 200 carries its
 * strong ETag (and so `Cache-Control: private, no-cache`). A matching If-None-Match answers 304
 * without a body. When it named entity tags only, the key check only looked at the budget
 * (`budgetPending`): a 304 consumes nothing (as GitHub does); any other answer consumes its unit
 * now, and is a 429 if none is left.
 */
async function answerConditionally(
  answer: ApiAnswer,
  { ifNoneMatch, budgetPending, key, route }: { ifNoneMatch: string | null; budgetPending: boolean; key: AuthenticatedKey; route: RestRoute },
): Promise<ApiAnswer> {
  const tag = answer.status === 200 && answer.body !== undefined ? entityTag(answer.body) : null;
  if (tag) answer.headers.set("ETag", tag);
  if (ifNoneMatch === null) return answer;
  if (tag && headerNamesTag(ifNoneMatch, tag, "weak")) {
    answer.headers.delete("Content-Type");
    return { status: 304, headers: answer.headers };
  }
  if (!budgetPending) return answer;
  const refusal = keyRefusal(await consumeKeyBudget(key), route.permission!, answer.headers);
  if (refusal) {
    answer.headers.delete("ETag");
    return errorAnswer(refusal, answer.headers);
  }
  return answer;
}

/**
 * GET /rate_limit: the account's plan and window as its headers report them, for any valid key
 * (looked at, never consumed); counted in usage like every request past the key.
 */
function rateLimitAnswer(
  verification: KeyVerification,
  resHeaders: Headers,
  served: ServedRequest,
): ApiAnswer {
  const { key, rateLimit } = verification;
  if (verification.status !== "valid" || !key || !rateLimit) return errorAnswer(keyRefusal(verification, null, resHeaders)!, resHeaders);
  served.keyId = key.id;
  const answer = jsonAnswer(200, resHeaders, { success: true, data: { plan: key.plan, ...rateLimitReport(rateLimit) } });
  served.counted = key;
  return answer;
}

/**
 * The one after-response step of a request whose key exists (README, The API: usage counts every
 * outcome past authentication): the usage record and request log entry, added to the in-memory
 * batch now (no database work on the request's path) and tracked until written, so analytics
 * reads can wait for it; and "Last Used" when due (about once a minute per key).
 */
function recordKeyedRequest(
  key: AuthenticatedKey,
  request: Omit<ApiRequestRecord, "accountId" | "keyId" | "at">,
): () => Promise<unknown> {
  const written = usageBatcher(getSqlPool).record({ accountId: key.accountId, keyId: key.id, ...request, at: new Date() });
  const usage = trackUsageWrite(key.accountId, () => written);
  return () => Promise.all([usage(), keyUseDue(key) ? recordKeyUse(getSqlPool(), key) : undefined]);
}

/**
 * For a request no operation serves (404, 405) or that needs no key (the OpenAPI document): the
 * account its key identifies, to report its state; nothing is counted. Only headers are at stake:
 * a failure is logged, and the answer stands without them.
 */
async function identifyKey(request: ApiRequest): Promise<KeyVerification> {
  try {
    return await verifyApiKey(request, null);
  } catch (error) {
    log.error({ err: error }, "rate-limit report failed");
    return { status: "missing" };
  }
}

/** The routed request's procedure, through trpc-to-openapi (./openapi-adapter.ts). */
const callOpenApi = createOpenApiAdapter({ createContext: (options: RequestContextOptions) => createTRPCContext(options) });

/** Runs the route's procedure: its success with the route's status; any failure as the API's error envelope (README, The API). */
async function callProcedure(
  { route, pathInput, method, body }: RoutedRequest & { method: string; body: unknown },
  context: RequestContextOptions,
  signal?: AbortSignal,
): Promise<ApiAnswer> {
  const outcome = await callOpenApi({ procedure: route.procedure!, pathInput, method, url: context.url, body, contextOptions: context, signal });
  if (!outcome.ok) return errorAnswer(toApiError(outcome.error), context.resHeaders);
  context.resHeaders.set("Content-Type", "application/json");
  const status = context.successStatus?.alternate && route.alternateSuccess ? route.alternateSuccess.status : route.successStatus;
  return { status, headers: context.resHeaders, body: outcome.body };
}

/** A signal aborted if the request's connection closes before `stop()`: its client went away. */
function clientLeaving(req: IncomingMessage): { signal: AbortSignal; stop: () => void } {
  const controller = new AbortController();
  const onClose = () => controller.abort();
  if (req.socket.destroyed) onClose();
  else req.socket.once("close", onClose);
  return { signal: controller.signal, stop: () => void req.socket.off("close", onClose) };
}

function jsonAnswer(status: number, headers: Headers, body: unknown): ApiAnswer {
  headers.set("Content-Type", "application/json");
  return { status, headers, body: JSON.stringify(body) };
}

function errorAnswer(error: ApiError, headers: Headers): ApiAnswer {
  if (error.apiCode === "SERVICE_UNAVAILABLE") headers.set("Retry-After", "5");
  return { ...jsonAnswer(error.httpStatus(), headers, errorEnvelope(error)), errorCode: error.apiCode };
}

function lowerCaseEntries(headers: Readonly<Record<string, string>>): [string, string][] {
  return Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]);
}

function mergeHeaders(target: Headers, extra: Headers | Readonly<Record<string, string>>): Headers {
  // A plain object is copied as is: no Headers built from it on every request.
  if (extra instanceof Headers) extra.forEach((value, name) => target.set(name, value));
  else for (const [name, value] of Object.entries(extra)) target.set(name, value);
  return target;
}
