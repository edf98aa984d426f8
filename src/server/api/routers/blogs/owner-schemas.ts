import { z } from "zod";
import { optionalBlogFields, requiredTitle, strictBoolean } from "~/server/blogs/fields";
import { MAX_PAGE_SIZE } from "~/server/pagination";

/**
 * The dashboard's contract for blogs: the owner edits every field, API access included. The
 * field rules and messages are the API's (blogFieldSchemas), so the forms say what the API says.
 * The blog forms check their fields with these very schemas before sending (this module is also
 * bundled for the browser: it imports nothing server-only).
 */

const allowApiAccess = strictBoolean("allowApiAccess");

export const ownerBlogIdInput = z.object({ id: z.string().min(1) });

export const ownerListBlogsInput = z.object({
  search: z.string().max(200).optional(),
  page: z.int().min(1).default(1),
  limit: z.int().min(1).max(MAX_PAGE_SIZE).default(10),
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
