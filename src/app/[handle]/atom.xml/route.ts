import { feedResponse } from "~/server/feed-response";

/** The owner's Atom 1.0 feed (docs/public-blog.md). */
export async function GET(request: Request, { params }: { params: Promise<{ handle: string }> }) {
  return feedResponse(request, (await params).handle, "atom");
}
