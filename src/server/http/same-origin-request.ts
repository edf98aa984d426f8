import "server-only";
import { IMPORT_PROCEDURE, UPLOAD_PROCEDURE, UPLOAD_REQUEST_HEADER } from "~/shared/dashboard-limits";
import { requestOrigin } from "./public-origin";

/**
 * The browser endpoints that act on a session cookie (/api/trpc, /api/auth) change things only
 * for the app's own pages (docs/security.md, Requests from other sites): a request that is not a
 * GET, HEAD or OPTIONS must say it comes from the app's origin (`Origin`, or without it
 * `Sec-Fetch-Site: same-origin`) and carry JSON, which no plain HTML form can send; the forms,
 * the dashboard's image upload and export import, only at their own procedures and with a header no HTML form can set.
 * SameSite cookies alone would let a sibling subdomain (same site, other origin) through.
 */
export function crossOriginRefusal(request: Request): Response | null {
  if (request.method === "GET" || request.method === "HEAD" || request.method === "OPTIONS") return null;
  const origin = request.headers.get("origin");
  const sameOrigin = origin === null ? request.headers.get("sec-fetch-site") === "same-origin" : origin === requestOrigin(request.headers);
  if (!sameOrigin) return forbidden("Requests that change something must come from this app's own pages (Origin)");
  const mediaType = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
  if (mediaType !== "application/json" && !isUploadForm(request, mediaType)) return forbidden("Requests that change something must send JSON (Content-Type: application/json)");
  return null;
}

function isUploadForm(request: Request, mediaType: string | undefined): boolean {
  return (
    mediaType === "multipart/form-data" &&
    [`/api/trpc/${UPLOAD_PROCEDURE}`, `/api/trpc/${IMPORT_PROCEDURE}`].includes(new URL(request.url).pathname) &&
    request.headers.get(UPLOAD_REQUEST_HEADER.name) === UPLOAD_REQUEST_HEADER.value
  );
}

function forbidden(message: string): Response {
  // Its caller adds the headers of every answer (no-store among them).
  return Response.json({ success: false, error: { code: "FORBIDDEN", message } }, { status: 403 });
}
