import { z } from "zod";
import { DEFAULT_PAGE, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "~/server/pagination";
import { booleanParam, calendarDateParam, integerParam } from "../../query-params";

/** The API's contract for blogs: request and response schemas, as the OpenAPI document shows them. */

export const blogSchema = z
  .object({
    id: z.string().meta({ description: "Unique identifier of the blog" }),
    title: z.string().meta({ description: "Title, 1 to 200 characters" }),
    blogSlug: z.string().meta({ description: "URL-friendly slug, unique per account" }),
    description: z.string().meta({ description: "Short description" }),
    content: z.string().meta({ description: "Markdown body" }),
    isPublic: z.boolean().meta({ description: "Whether the blog is publicly visible" }),
    allowApiAccess: z.boolean().meta({ description: "Whether API access is enabled (always true here)" }),
    seoTitle: z.string(),
    seoDescription: z.string(),
    createdAt: z.iso.datetime().meta({ description: "Creation time, ISO 8601" }),
    updatedAt: z.iso.datetime().meta({ description: "Last update, ISO 8601" }),
  })
  .meta({ id: "Blog" });

export const paginationSchema = z
  .object({
    page: z.int(),
    limit: z.int(),
    total: z.int(),
    totalPages: z.int(),
    hasNext: z.boolean(),
    hasPrev: z.boolean(),
  })
  .meta({ id: "Pagination" });

export function successEnvelope<T extends z.ZodType>(data: T) {
  return z.object({ success: z.literal(true), data });
}

export const listBlogsInput = z.object({
  page: integerParam("page", { min: 1, default: DEFAULT_PAGE }).meta({ description: "Page number" }),
  limit: integerParam("limit", { min: 1, max: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE }).meta({
    description: "Items per page",
  }),
  public: booleanParam("public").meta({ description: "true: only public blogs; false: only non-public ones" }),
  from: calendarDateParam("from").meta({ description: "Created on or after this UTC day (YYYY-MM-DD)" }),
  to: calendarDateParam("to").meta({ description: "Created on or before this UTC day (YYYY-MM-DD)" }),
});

export const listBlogsOutput = successEnvelope(z.object({ blogs: z.array(blogSchema), pagination: paginationSchema }));
