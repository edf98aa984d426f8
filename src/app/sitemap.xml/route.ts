import { requestOrigin } from "~/server/public-origin";
import { publicSitemapIndex } from "~/server/public-pages";
import { publicDocumentResponse } from "~/server/public-response";

/** The sitemap index: one sitemap per owner with a public blog (docs/public-blog.md). */
export async function GET(request: Request) {
  return publicDocumentResponse(request, await publicSitemapIndex(requestOrigin(request.headers)), "application/xml; charset=utf-8");
}
