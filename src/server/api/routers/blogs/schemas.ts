import "server-only";
import { z } from "zod";
import { blogFieldSchemas, MAX_AUTHORS, MAX_SEARCH_LENGTH, optionalBlogFields, requiredTitle, strictBoolean } from "~/shared/blog-fields";
import { encodeBlogCursor, type BlogCursor } from "~/server/blogs/blog-cursor";
import type { BlogListQuery } from "~/server/blogs/blog-list-query";
import type { BlogView } from "~/server/blogs/blog-view";
import { DEFAULT_PAGE, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "~/server/common/pagination";
import { blogCursorParam, booleanParam, calendarDateParam, enumParam, integerParam, tagParam } from "../../query-params";
import { BLOG_SORTS, DEFAULT_BLOG_SORT_NAME } from "~/shared/blog-sort";
import { BLOG_STATUSES } from "~/shared/blog-status";
import { MAX_TAGS, TAG_MAX_LENGTH } from "~/shared/tags";

/**
 * The API's contract for blogs: request and response schemas, as the OpenAPI document shows them.
 * The Blog is checked against BlogView, the shape the database function blog_api_view gives.
 */

const COVER_IMAGE_DESCRIPTION =
  "The id of an image of the account shown with the blog: above its public page's title, on the index cards, as its share " +
  "image and in its feeds; null for none. Deleting the image sets it to null";

const AUTHORS_DESCRIPTION =
  "The members of the publication who wrote the blog, as user ids, the primary author first (docs/authors.md): the member " +
  "who created it by default; for an API key, the CLI or an import, the publication's owner";

const EMAIL_SUBSCRIBERS_DESCRIPTION =
  "Whether the blog is emailed to the account's active subscribers when it first becomes public (now or by its schedule), " +
  "once; default false. Writable until the blog has been public or emailed";

export const blogSchema = z
  .object({
    id: z.string().meta({ description: "Unique identifier of the blog", readOnly: true }),
    title: z.string().meta({ description: "Title, 1 to 200 characters" }),
    blogSlug: z.string().meta({ description: "URL-friendly slug, unique per account" }),
    description: z.string().meta({ description: "Short description" }),
    content: z.string().meta({ description: "Markdown body" }),
    isPublic: z.boolean().meta({ description: "Whether the blog is publicly visible" }),
    allowApiAccess: z.boolean().meta({ description: "Whether API access is enabled (always true here)", readOnly: true }),
    seoTitle: z.string(),
    seoDescription: z.string(),
    tags: z.array(z.string()).meta({ description: `Tags as written, at most ${MAX_TAGS}; matched by their slug, ignoring case and punctuation` }),
    authors: z.array(z.string()).meta({ description: AUTHORS_DESCRIPTION }),
    coverImage: z.string().nullable().meta({ description: COVER_IMAGE_DESCRIPTION }),
    emailSubscribers: z.boolean().meta({ description: EMAIL_SUBSCRIBERS_DESCRIPTION }),
    emailedAt: z.iso.datetime().nullable().meta({
      description: "When the blog's email to subscribers started, ISO 8601 (set once, as it first became public); null if never. See GET /blogs/{blogId}/newsletter",
      readOnly: true,
    }),
    status: z.enum(BLOG_STATUSES).meta({
      description: "published: public now; scheduled: not public, publishAt set; draft: neither",
      readOnly: true,
    }),
    publishAt: z.iso.datetime().nullable().meta({ description: "When the blog becomes public, ISO 8601; null when not scheduled" }),
    publishedAt: z.iso.datetime().nullable().meta({
      description: "When the blog first became public, ISO 8601 (kept when unpublished); null if it never was",
      readOnly: true,
    }),
    createdAt: z.iso.datetime().meta({ description: "Creation time, ISO 8601", readOnly: true }),
    updatedAt: z.iso.datetime().meta({ description: "Last update, ISO 8601", readOnly: true }),
  })
  .meta({ id: "Blog" }) satisfies z.ZodType<BlogView>;

/** A list's page by number (README, The API): every list's pagination has these. */
const pageFields = { page: z.int(), limit: z.int(), total: z.int(), totalPages: z.int(), hasNext: z.boolean(), hasPrev: z.boolean() };

/** A list read by page number only (images). */
export const pagePaginationSchema = z.object(pageFields);

export const paginationSchema = z
  .object({
    ...pageFields,
    nextCursor: z.string().nullable().meta({
      description:
        "Opaque cursor of the next page (null when hasNext is false): send it as `cursor` to read that page at the same cost at any depth",
    }),
  })
  .meta({ id: "Pagination" });

export function successEnvelope<T extends z.ZodType>(data: T) {
  return z.object({ success: z.literal(true), data });
}

/**
 * The list's parameters as one consistent example request (page 2 of public blogs matching
 * "hello", created on 2026-01-31, by its cursor), so a client or contract suite that sends every
 * example gets an answer, not the 400 of a cursor contradicting the other parameters.
 */
const LIST_EXAMPLE = {
  page: 2,
  limit: 10,
  public: true,
  status: "published",
  sort: DEFAULT_BLOG_SORT_NAME,
  tag: "nextjs",
  day: "2026-01-31",
  q: "hello",
} as const;
const LIST_EXAMPLE_CURSOR = encodeBlogCursor({
  sort: LIST_EXAMPLE.sort,
  key: `${LIST_EXAMPLE.day}T12:00:00.000Z`,
  id: "blog-id",
  page: LIST_EXAMPLE.page,
  limit: LIST_EXAMPLE.limit,
  public: LIST_EXAMPLE.public,
  status: LIST_EXAMPLE.status,
  tag: LIST_EXAMPLE.tag,
  from: new Date(`${LIST_EXAMPLE.day}T00:00:00.000Z`),
  to: new Date(`${LIST_EXAMPLE.day}T00:00:00.000Z`),
  q: LIST_EXAMPLE.q,
});

/** The query of src/server/blogs/blog-list-query.ts as parameters, `q` as sent (untrimmed), and its cursor. */
export const listBlogsInput = z.object({
  page: integerParam("page", { min: 1, default: DEFAULT_PAGE }).meta({ description: "Page number", example: LIST_EXAMPLE.page }),
  limit: integerParam("limit", { min: 1, max: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE }).meta({
    description: "Items per page",
    example: LIST_EXAMPLE.limit,
  }),
  public: booleanParam("public").meta({ description: "true: only public blogs; false: only non-public ones", example: LIST_EXAMPLE.public }),
  status: enumParam("status", BLOG_STATUSES)
    .meta({ description: "Only blogs with this status (with `public`, both must hold)", example: LIST_EXAMPLE.status })
    .optional(),
  sort: enumParam("sort", BLOG_SORTS).meta({
    description:
      "Order: a field, ascending, or with `-` descending; ties by id the same way. Blogs never published have no publishedAt " +
      "and sort after every date (last with publishedAt, first with -publishedAt). Default -createdAt.",
    example: LIST_EXAMPLE.sort,
  })
    .optional(),
  tag: tagParam("tag").meta({ description: "Only blogs carrying this tag, given by its slug or as written (Next.js and next-js are one tag)", example: LIST_EXAMPLE.tag }),
  from: calendarDateParam("from").meta({ description: "Created on or after this UTC day (YYYY-MM-DD)", example: LIST_EXAMPLE.day }),
  to: calendarDateParam("to").meta({ description: "Created on or before this UTC day (YYYY-MM-DD)", example: LIST_EXAMPLE.day }),
  q: z
    .string({ error: "q must be a string" })
    .max(MAX_SEARCH_LENGTH, { error: `q must be at most ${MAX_SEARCH_LENGTH} characters` })
    .meta({
      description: `Search, after trimming: only blogs whose title or slug contains this text, ignoring case (at most ${MAX_SEARCH_LENGTH} characters as sent)`,
      example: LIST_EXAMPLE.q,
    })
    .optional(),
  cursor: blogCursorParam("cursor").meta({
    example: LIST_EXAMPLE_CURSOR,
    description:
      "pagination.nextCursor of a previous response: reads the page it leads to by position instead of by offset (same cost at any depth). " +
      "The cursor carries its page number, limit, sort and filters: page, limit, sort, public, status, tag, from, to and q may be omitted or repeated, but not changed.",
  }),
}) satisfies z.ZodType<BlogListQuery & { cursor?: BlogCursor }>;

export const listBlogsOutput = successEnvelope(z.object({ blogs: z.array(blogSchema), pagination: paginationSchema }));

/** Each with an example, which generated clients and contract suites send as the field's value. */
const writableFields = {
  blogSlug: optionalBlogFields.blogSlug.meta({ description: "Derived from the title when absent on create", example: "hello-world" }),
  description: optionalBlogFields.description.meta({ example: "A first post" }),
  content: optionalBlogFields.content.meta({ description: "Markdown body", example: "# Hello\n\nThe first post." }),
  isPublic: optionalBlogFields.isPublic.meta({ description: "Defaults to false on create", example: false }),
  seoTitle: optionalBlogFields.seoTitle.meta({ example: "Hello world" }),
  seoDescription: optionalBlogFields.seoDescription.meta({ example: "The first post of this blog" }),
  tags: optionalBlogFields.tags.meta({
    description: `At most ${MAX_TAGS}, each 1 to ${TAG_MAX_LENGTH} characters after trimming; one spelling kept per slug`,
    example: ["Next.js", "Databases"],
  }),
  publishAt: optionalBlogFields.publishAt.meta({
    description:
      "A future moment (ISO 8601 with a time zone) at which the blog becomes public; null cancels. Setting isPublic true clears it; " +
      "on a public blog send isPublic false with it.",
    example: "2099-01-01T09:00:00Z",
  }),
  coverImage: optionalBlogFields.coverImage.meta({
    description: `${COVER_IMAGE_DESCRIPTION}. Another id (unknown, or another account's image) is a 400`,
    example: null,
  }),
  emailSubscribers: optionalBlogFields.emailSubscribers.meta({
    description: `${EMAIL_SUBSCRIBERS_DESCRIPTION}: changing it then is a 400 INVALID_PARAMETER (sending the current value is accepted)`,
    example: false,
  }),
  authors: optionalBlogFields.authors.meta({
    description:
      `${AUTHORS_DESCRIPTION}. 1 to ${MAX_AUTHORS} distinct user ids, each a current member of the publication (else a 400 ` +
      "INVALID_PARAMETER naming authors); null is the same as absent: the default on create, unchanged on update",
    example: null,
  }),
};

export const WRITABLE_FIELDS = ["title", ...Object.keys(writableFields)] as const;

/**
 * Read-only fields may be sent back as read: equal values are ignored, others refused. Marked
 * `readOnly`, they are left out of the document's request bodies (../../rest/openapi.ts), so
 * generated requests never send them.
 */
const READ_ONLY = { readOnly: true } as const;
const readOnlyFields = {
  id: z.string({ error: "id must be a string" }).optional().meta(READ_ONLY),
  createdAt: z.string({ error: "createdAt must be a string" }).optional().meta(READ_ONLY),
  updatedAt: z.string({ error: "updatedAt must be a string" }).optional().meta(READ_ONLY),
  allowApiAccess: strictBoolean("allowApiAccess").optional().meta(READ_ONLY),
  status: z.string({ error: "status must be a string" }).optional().meta(READ_ONLY),
  publishedAt: z.string({ error: "publishedAt must be a string or null" }).nullable().optional().meta(READ_ONLY),
  emailedAt: z.string({ error: "emailedAt must be a string or null" }).nullable().optional().meta(READ_ONLY),
};

export const READ_ONLY_FIELDS = Object.keys(readOnlyFields) as (keyof typeof readOnlyFields)[];

export type ReadOnlyFields = { [K in keyof typeof readOnlyFields]?: z.infer<(typeof readOnlyFields)[K]> };

/**
 * A pattern for a string of `min` to `max` characters once surrounding whitespace is trimmed (JSON Schema's
 * lengths count the string as sent); `min` 0 lets a blank string through.
 */
export function trimmedLengthPattern(min: 0 | 1, max: number): string {
  const core = String.raw`\S(?:[\s\S]{0,${max - 2}}\S)?`;
  return String.raw`^\s*${min === 0 ? `(?:${core})?` : core}\s*$`;
}

/** The title rule as the document can state it: 1 to 200 characters once surrounding whitespace is trimmed. */
const TITLE_AFTER_TRIMMING = { description: "1 to 200 characters after trimming", pattern: trimmedLengthPattern(1, 200), example: "Hello world" };

/** The title as sent: the pipe keeps the document from stating the trimmed title's length rule as the sent one's. */
const titleAsSent = z.string({ error: "title must be a string" }).pipe(blogFieldSchemas.title);

export const blogIdParams = { blogId: z.string().min(1).meta({ description: "The blog's id" }) };

export const createBlogInput = z.object({
  title: requiredTitle.meta(TITLE_AFTER_TRIMMING),
  ...writableFields,
  ...readOnlyFields,
});

export const updateBlogInput = z.object({
  ...blogIdParams,
  title: titleAsSent.optional().meta(TITLE_AFTER_TRIMMING),
  ...writableFields,
  ...readOnlyFields,
});

/**
 * The dashboard editor's session, one per page it opens: the saves of one session within minutes of
 * each other make one revision (src/server/blogs/change-source.ts). Not part of the REST API.
 */
export const editSessionInput = { editSession: z.string().min(1).max(64).optional() };

export const blogOutput = successEnvelope(z.object({ blog: blogSchema }));

export const deleteBlogOutput = successEnvelope(z.object({ id: z.string(), deleted: z.literal(true) }));
