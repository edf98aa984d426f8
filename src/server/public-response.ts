import "server-only";
import { entityTag, headerNamesTag, namesEntityTagsOnly } from "./api/entity-tags";
import { configuredOrigin } from "./public-origin";

/**
 * The answer for a public document (a feed, a sitemap; docs/public-blog.md): the body with its
 * ETag, or a 304 when If-None-Match names it; 404 when there is none. Caches may keep it and must
 * revalidate (a write shows on the next request); shared caches only when the origin is
 * configured, since the links in it are absolute and would otherwise carry the Host the first
 * request sent (docs/security.md, The app's origin).
 */
export function publicDocumentResponse(request: Request, body: string | null, contentType: string): Response {
  if (body === null) return new Response("Not found", { status: 404, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" } });
  const tag = entityTag(body);
  const headers = { etag: tag, "cache-control": `${configuredOrigin ? "public" : "private"}, no-cache` };
  const ifNoneMatch = request.headers.get("if-none-match");
  if (namesEntityTagsOnly(ifNoneMatch) && headerNamesTag(ifNoneMatch!, tag, "weak")) return new Response(null, { status: 304, headers });
  return new Response(body, { headers: { ...headers, "content-type": contentType } });
}
