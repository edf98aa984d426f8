import { feedResponse } from "~/server/feed-response";

/** The Atom 1.0 feed of one of the owner's tags (docs/public-blog.md). */
export async function GET(request: Request, { params }: { params: Promise<{ handle: string; tagSlug: string }> }) {
  const { handle, tagSlug } = await params;
  return feedResponse(request, handle, "atom", tagSlug);
}
