import "server-only";
import type { BlogView } from "~/server/blogs/blog-view";
import type { BlogPrecondition } from "~/server/blogs/blog-precondition";
import { entityTag, headerNamesTag } from "../../../http/entity-tags";
import { blogOutput } from "./schemas";

/** GET /blogs/{blogId}'s answer for a blog, as the procedure returns it. */
export function blogAnswer(blog: BlogView) {
  return { success: true as const, data: { blog } };
}

/**
 * A blog's ETag: the one GET /blogs/{blogId} (and the dashboard's blogs.get) answers with, since
 * both doors tag the body they send, which is this answer as serialized after the output schema.
 */
export function blogEntityTag(blog: BlogView): string {
  return entityTag(JSON.stringify(blogOutput.parse(blogAnswer(blog))));
}

/**
 * The precondition of a write carrying If-Match (README, The API): the blog's current ETag must be
 * listed. None without the header: the write is unconditional.
 */
export function ifMatchPrecondition(headers: Headers): BlogPrecondition | undefined {
  const ifMatch = headers.get("if-match");
  if (ifMatch === null) return undefined;
  return (current) => headerNamesTag(ifMatch, blogEntityTag(current), "strong");
}
