import { feedResponse } from "~/server/feed-response";

/** The owner's JSON Feed 1.1 feed (docs/public-blog.md). */
export async function GET(request: Request, { params }: { params: Promise<{ handle: string }> }) {
  return feedResponse(request, (await params).handle, "json");
}
