import "server-only";
import { entityTag, headerNamesTag, namesEntityTagsOnly } from "./api/entity-tags";
import { FEED_FORMATS, type FeedFormat } from "./feeds";
import { configuredOrigin, requestOrigin } from "./public-origin";
import { publicFeed } from "./public-pages";

/**
 * GET of an owner's feed (docs/public-blog.md): the feed with its ETag, or a 304 when
 * If-None-Match names it; 404 for an unknown handle or an account with no public blog. Caches
 * may keep it and must revalidate (a write shows on the next request); shared caches only when
 * the origin is configured, since the links are absolute and would otherwise carry the Host the
 * first request sent (docs/security.md, The app's origin).
 */
export async function feedResponse(request: Request, handle: string, format: FeedFormat): Promise<Response> {
  const feed = await publicFeed(handle, format, requestOrigin(request.headers));
  if (!feed) return new Response("Not found", { status: 404, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" } });
  const tag = entityTag(feed.text);
  const headers = { etag: tag, "cache-control": `${configuredOrigin ? "public" : "private"}, no-cache` };
  const ifNoneMatch = request.headers.get("if-none-match");
  if (namesEntityTagsOnly(ifNoneMatch) && headerNamesTag(ifNoneMatch!, tag, "weak")) return new Response(null, { status: 304, headers });
  return new Response(feed.text, { headers: { ...headers, "content-type": FEED_FORMATS[format].contentType } });
}
