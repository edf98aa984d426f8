import { z } from "zod";
import { optionalBlogFields, requiredTitle, strictBoolean } from "~/shared/blog-fields";
import { MAX_PAGE, MAX_PAGE_SIZE } from "~/server/pagination";

/**
 * The dashboard's contract for blogs: the owner edits every field, API access included. The
 * field rules and messages are the API's (blogFieldSchemas), so the forms say what the API says.
 * The blog forms check their fields with these very schemas before sending (this module is also
 * bundled for the browser: it imports nothing server-only).
 */

const allowApiAccess = strictBoolean("allowApiAccess");

export const ownerBlogIdInput = z.object({ id: z.string().min(1) });

/** Every number has a maximum, so none reaches the database unbounded. */
function boundedInt(name: string, max: number) {
  const rule = `${name} must be an integer between 1 and ${max.toLocaleString("en-US")}`;
  return z.int({ error: rule }).min(1, { error: rule }).max(max, { error: rule });
}

export const ownerListBlogsInput = z.object({
  search: z.string().max(200).optional(),
  page: boundedInt("page", MAX_PAGE).default(1),
  limit: boundedInt("limit", MAX_PAGE_SIZE).default(10),
});

export const ownerCreateBlogInput = z.object({
  title: requiredTitle,
  ...optionalBlogFields,
  allowApiAccess: allowApiAccess.optional(),
});

export const ownerUpdateBlogInput = ownerBlogIdInput.extend({
  title: requiredTitle.optional(),
  ...optionalBlogFields,
  allowApiAccess: allowApiAccess.optional(),
});
