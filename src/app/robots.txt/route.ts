import { requestOrigin } from "~/server/public-origin";
import { publicDocumentResponse } from "~/server/public-response";

/** Crawlers may read the public blog, not the dashboard, the APIs or preview links; the sitemap index is named (docs/public-blog.md). */
export function GET(request: Request) {
  const robots = ["User-agent: *", "Disallow: /dashboard", "Disallow: /api/", "Disallow: /preview/", `Sitemap: ${requestOrigin(request.headers)}/sitemap.xml`, ""].join("\n");
  return publicDocumentResponse(request, robots, "text/plain; charset=utf-8");
}
