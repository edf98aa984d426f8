import "server-only";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { callerHolds, refusalMessage, type CallRule } from "~/server/accounts/caller";
import { getSessionUser, sessionMember } from "~/server/auth";
import { Readable } from "node:stream";
import { currentRequestId, withRequestId } from "~/server/runtime/log";
import { consumeDashboardMutation } from "~/server/ratelimit/account-rate";
import { boundedRequest } from "~/server/http/bounded-body";
import { crossOriginRefusal } from "~/server/http/same-origin-request";
import { API_SECURITY_HEADERS } from "~/server/http/security-headers";
import { entityTag } from "~/server/http/entity-tags";
import { ApiError, toApiError } from "../errors";
import { spoolImportUpload, type SpooledImport } from "../import-upload";
import { resetDetails, setRetryAfter } from "../rate-limit-headers";
import { appRouter } from "../root";
import {
  IMPORT_PROCEDURE,
  MAX_BATCH_CALLS,
  MAX_DASHBOARD_BODY_BYTES,
  MAX_SUBSCRIBER_IMPORT_REQUEST_BYTES,
  SUBSCRIBER_IMPORT_PROCEDURE,
  UPLOAD_PROCEDURE,
} from "~/shared/dashboard-limits";
import { MAX_IMAGE_REQUEST_BYTES } from "~/shared/images";
import { createTRPCContext, type RequestContextOptions } from "../trpc";

/** Who may import, as the import procedure's meta says (src/server/accounts/caller.ts). */
const IMPORT_RULE: CallRule = (appRouter._def.procedures as unknown as Record<string, { _def: { meta?: CallRule } }>)[IMPORT_PROCEDURE]?._def.meta ?? {};

/**
 * The dashboard's door to the app's procedures (/api/trpc): the caller is the signed-in member, in the
 * publication their session works in, with their role's rights (docs/teams.md), or nobody (every procedure then answers 401). Anything but a
 * GET must come from the app's own pages (src/server/http/same-origin-request.ts). Every request gets
 * an id (X-Request-Id, on every log line it causes and in its errors' data). A body declared
 * larger than MAX_DASHBOARD_BODY_BYTES (an image upload's: MAX_IMAGE_REQUEST_BYTES; a subscriber import's:
 * MAX_SUBSCRIBER_IMPORT_REQUEST_BYTES) is refused before any
 * procedure runs; one that turns out larger is read no further than that. An owner's export to
 * import (imports.create) is streamed to disk first, up to MAX_IMPORT_BYTES (src/server/api/import-upload.ts). A batch of more than
 * MAX_BATCH_CALLS calls is refused whole.
 */
export function handleDashboardRequest(req: Request, afterResponse: RequestContextOptions["afterResponse"]): Promise<Response> {
  const requestId = crypto.randomUUID();
  const path = new URL(req.url).pathname;
  const maxBodyBytes =
    path === `/api/trpc/${UPLOAD_PROCEDURE}`
      ? MAX_IMAGE_REQUEST_BYTES
      : path === `/api/trpc/${SUBSCRIBER_IMPORT_PROCEDURE}`
        ? MAX_SUBSCRIBER_IMPORT_REQUEST_BYTES
        : MAX_DASHBOARD_BODY_BYTES;
  return withRequestId(requestId, async () => {
    // A mutation only from the app's own pages, before the session is even looked at.
    const refusal = crossOriginRefusal(req);
    if (refusal) return withSecurityHeaders(refusal, requestId);
    let spooled: SpooledImport | undefined;
    let request = req;
    // An export is spooled to disk only for a signed-in member whose role may import (docs/migrating.md,
    // How an import runs; docs/teams.md): any other is refused before a byte of it is read.
    const importer = path === `/api/trpc/${IMPORT_PROCEDURE}` && req.method === "POST" ? sessionMember(await getSessionUser(req.headers)) : null;
    if (importer) {
      const caller = { kind: "member" as const, member: importer };
      if (!callerHolds(caller, IMPORT_RULE)) {
        return withSecurityHeaders(trpcErrorResponse(new ApiError("INSUFFICIENT_PERMISSIONS", refusalMessage(caller, IMPORT_RULE))), requestId);
      }
      try {
        spooled = await spoolImportUpload(Object.fromEntries(req.headers), Readable.fromWeb((req.body ?? new Blob([]).stream()) as never));
      } catch (error) {
        return withSecurityHeaders(trpcErrorResponse(toApiError(error)), requestId);
      }
      request = spooledRequest(req, spooled);
    }
    const response = await fetchRequestHandler({
      endpoint: "/api/trpc",
      router: appRouter,
      req: spooled ? request : boundedRequest(request, maxBodyBytes, () => payloadTooLarge(maxBodyBytes)),
      maxBatchSize: MAX_BATCH_CALLS,
      responseMeta: ({ data, errors }) => {
        // A lone answer carries the ETag /api/v1 gives the same body (README, The API: conditional
        // requests): the edit form sends it back as If-Match, to the procedures' one If-Match check.
        const [only] = data;
        if (data.length !== 1 || errors.length > 0 || !only || !("result" in only)) return {};
        return { headers: { ETag: entityTag(JSON.stringify(only.result.data)) } };
      },
      createContext: async ({ resHeaders }) => {
        // Runs after the calls are known and before any of them: nothing is read or looked up.
        if (!spooled && Number(req.headers.get("content-length")) > maxBodyBytes) throw payloadTooLarge(maxBodyBytes);
        const member = sessionMember(await getSessionUser(req.headers));
        return createTRPCContext({
          headers: req.headers,
          url: new URL(req.url),
          resHeaders,
          afterResponse,
          caller: member && { kind: "member", member },
          limitMutation: member ? () => limitDashboardMutation(member.publication.id, resHeaders) : undefined,
        });
      },
    }).finally(() => spooled?.remove());
    return withSecurityHeaders(response, requestId);
  });
}

function withSecurityHeaders(response: Response, requestId: string): Response {
  response.headers.set("X-Request-Id", requestId);
  // Not behind the proxy (src/proxy.ts), which would buffer the body: the JSON answers' headers are set here.
  for (const [name, value] of Object.entries(API_SECURITY_HEADERS)) response.headers.set(name, value);
  return response;
}

/**
 * The request as tRPC reads it once its export is on disk: its form is the spooled file (read
 * from disk as the import stores it) and `oldUrl`, never the body parsed again in memory.
 */
function spooledRequest(req: Request, spooled: SpooledImport): Request {
  const form = new FormData();
  form.set("file", spooled.file);
  if (spooled.oldUrl !== undefined) form.set("oldUrl", spooled.oldUrl);
  const request = new Request(req.url, { method: "POST", headers: req.headers });
  return Object.assign(request, { formData: () => Promise.resolve(form) });
}

/** A refusal before tRPC runs (the upload's), in tRPC's answer shape as the dashboard reads it. */
function trpcErrorResponse(error: ApiError): Response {
  const body = { error: { message: error.message, code: -32600, data: { code: error.code, httpStatus: error.httpStatus(), apiCode: error.apiCode, details: error.details, requestId: currentRequestId() } } };
  return Response.json(body, { status: error.httpStatus() });
}

/** One unit of the publication's hourly budget of dashboard changes; past it, a 429 until the hour resets. */
async function limitDashboardMutation(accountId: string, resHeaders: Headers): Promise<void> {
  const state = await consumeDashboardMutation(accountId);
  if (state.success) return;
  setRetryAfter(resHeaders, state);
  throw new ApiError("RATE_LIMIT_EXCEEDED", "Too many changes", resetDetails(`At most ${state.limit} changes an hour can be made in the dashboard`, state));
}

function payloadTooLarge(maxBodyBytes: number): ApiError {
  return new ApiError("PAYLOAD_TOO_LARGE", "Request body too large", `This request to /api/trpc may carry at most ${Math.floor(maxBodyBytes / 1024 / 1024)} MiB`);
}
