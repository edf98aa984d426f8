import "server-only";
import type { BlogView } from "~/server/blogs/blog-view";
import type { BlogPrecondition } from "~/server/blogs/blog-precondition";
import { entityTag, headerNamesTag } from "../../entity-tags";
import { blogOutput } from "./schemas";

/** GET /blogs/{blogId}'s answer for a blog, as the procedure returns it. */
export function blogAnswer(blog: BlogView) {
  return { success: true as const, data: { blog } };
}

/**
 * The precondition of a write carrying If-Match (README, The API): the blog's current ETag, the
 * one its GET answers with (the body as serialized after the output schema), must be listed.
 * None without the header: the write is unconditional.
 */
export function ifMatchPrecondition(headers: Headers): BlogPrecondition | undefined {
  const ifMatch = headers.get("if-match");
  if (ifMatch === null) return undefined;
  return (current) => headerNamesTag(ifMatch, entityTag(JSON.stringify(blogOutput.parse(blogAnswer(current)))), "strong");
}
