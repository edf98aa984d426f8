import "server-only";
import { readCappedWebBody } from "~/server/http/bounded-body";
import { toApiError } from "~/server/api/errors";
import { clientIpOfWebRequest } from "~/server/http/client-ip";
import { sendQueuedEmailsOnVercel } from "~/server/email/queue-email";
import { requestOrigin } from "~/server/http/public-origin";
import { crossOriginRefusal } from "~/server/http/same-origin-request";
import { API_SECURITY_HEADERS } from "~/server/http/security-headers";
import { AUTH_CLIENT_IP_HEADER, getAuth } from "./config";
import { endpointPolicy, sendsEmail, type EndpointPolicy } from "./endpoint-policies";

/** The largest body /api/auth reads: its forms send a few hundred bytes. */
export const AUTH_MAX_BODY_BYTES = 64 * 1024;

/**
 * The least time the endpoints with a uniform answer take. Both branches do the same kind of work
 * (a password hash and an email queued for sign-up, a lookup and maybe a token for reset), but not
 * the same number of database writes: a floor above either makes them indistinguishable by timing.
 */
const UNIFORM_ANSWER_MS = 400;

const AUTH_BASE_PATH = "/api/auth";

/**
 * better-auth's endpoints for a request that reached Next (src/app/api/auth), behind the app's
 * own checks (docs/security.md, Sign-in): only the endpoints the app uses, only from its own
 * pages (src/server/http/same-origin-request.ts), bodies of at most AUTH_MAX_BODY_BYTES. better-auth
 * gets the request at the app's origin (src/server/http/public-origin.ts) without forwarding headers,
 * and the client's address in a header of ours; its 429s say when to retry in the standard header.
 */
export async function handleAuthRequest(request: Request): Promise<Response> {
  const response = await answerAuthRequest(request);
  // Not behind the proxy (src/proxy.ts), which would buffer the body: the headers are set here
  // (on a copy: a redirect's own headers cannot be changed).
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(API_SECURITY_HEADERS)) headers.set(name, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

async function answerAuthRequest(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const endpoint = url.pathname.slice(AUTH_BASE_PATH.length);
  const policy = endpointPolicy(endpoint);
  if (!policy) return authError(404, "NOT_FOUND", "Not found");
  if (!policy.uniformAnswer) return answerAuthEndpoint(request, url, policy);
  const startedAt = Date.now();
  const response = await answerAuthEndpoint(request, url, policy);
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, UNIFORM_ANSWER_MS - (Date.now() - startedAt))));
  // better-auth's sign-up answer holds the account (a made-up one for a known address): ours holds nothing.
  if (endpoint !== "/sign-up/email" || response.status !== 200) return response;
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  return Response.json({ status: true }, { status: 200, headers });
}

async function answerAuthEndpoint(request: Request, url: URL, policy: EndpointPolicy): Promise<Response> {
  const refusal = crossOriginRefusal(request);
  if (refusal) return refusal;
  const body = await readCappedWebBody(request, AUTH_MAX_BODY_BYTES);
  if (body === "too large") return authError(413, "PAYLOAD_TOO_LARGE", `Request bodies are limited to ${AUTH_MAX_BODY_BYTES / 1024} KiB`);
  const headers = new Headers(request.headers);
  for (const name of [AUTH_CLIENT_IP_HEADER, "x-forwarded-host", "x-forwarded-proto"]) headers.delete(name);
  const ip = clientIpOfWebRequest(request.headers);
  // better-auth counts an IPv6 client by its /64 itself.
  if (ip) headers.set(AUTH_CLIENT_IP_HEADER, ip);
  const target = `${requestOrigin(request.headers)}${url.pathname}${url.search}`;
  let response: Response;
  try {
    response = await getAuth().handler(new Request(target, { method: request.method, headers, body: body && new Uint8Array(body) }));
  } catch (error) {
    // The API's mapping (logged once, in the JSON log): a database away is a 503, bad data a 400.
    const failure = toApiError(error);
    return authError(failure.httpStatus(), failure.apiCode, failure.message);
  }
  if (sendsEmail(policy)) sendQueuedEmailsOnVercel();
  const retryAfter = response.headers.get("X-Retry-After");
  if (response.status === 429 && retryAfter && !response.headers.has("Retry-After")) {
    response.headers.set("Retry-After", retryAfter);
  }
  return response;
}

function authError(status: number, code: string, message: string): Response {
  return Response.json({ code, message }, { status });
}

