import "server-only";
import { FEED_FORMATS, type FeedFormat } from "./feeds";
import { requestOrigin } from "./public-origin";
import { publicFeed } from "./public-pages";
import { publicDocumentResponse } from "./public-response";

/** GET of an owner's feed, or of one of their tags (docs/public-blog.md); 404 for an unknown handle or tag, or an account with no public blog. */
export async function feedResponse(request: Request, handle: string, format: FeedFormat, tagSlug?: string): Promise<Response> {
  const feed = await publicFeed(handle, format, requestOrigin(request.headers), tagSlug);
  return publicDocumentResponse(request, feed?.text ?? null, FEED_FORMATS[format].contentType);
}
