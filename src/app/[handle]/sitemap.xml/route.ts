import { requestOrigin } from "~/server/public-origin";
import { publicSitemap } from "~/server/public-pages";
import { publicDocumentResponse } from "~/server/public-response";

/** The owner's sitemap (docs/public-blog.md); 404 for an unknown handle or an account with no public blog. */
export async function GET(request: Request, { params }: { params: Promise<{ handle: string }> }) {
  const sitemap = await publicSitemap((await params).handle, requestOrigin(request.headers));
  return publicDocumentResponse(request, sitemap?.text ?? null, "application/xml; charset=utf-8");
}
