import { z } from "zod";
import { tagsSchema } from "./tags";

/** Slugs: lowercase letters and digits in groups joined by single hyphens. */
export const SLUG_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;
export const SLUG_MAX_LENGTH = 100;
/** The longest search text `q` (as sent): the API's list and the public site's search. */
export const MAX_SEARCH_LENGTH = 200;
/** A blog's authors, at most (docs/authors.md): member user ids, the primary first. */
export const MAX_AUTHORS = 10;
/** The text fields' lengths, at most (an import cuts what is longer, and says so). */
export const BLOG_FIELD_MAX_LENGTHS = { title: 200, description: 1000, seoTitle: 200, seoDescription: 500, content: 500_000 } as const;

/**
 * The rules for every writable blog field (docs/api.md, writing rules), shared by the API, the dashboard and
 * the import. Each message names the field and its rule, as the error `details` show it.
 */
export const blogFieldSchemas = {
  title: z
    .string({ error: "title must be a string" })
    .trim()
    .min(1, { error: `title must be 1 to ${BLOG_FIELD_MAX_LENGTHS.title} characters` })
    .max(BLOG_FIELD_MAX_LENGTHS.title, { error: `title must be 1 to ${BLOG_FIELD_MAX_LENGTHS.title} characters` }),
  blogSlug: z
    .string({ error: "blogSlug must be a string" })
    .min(1, { error: "blogSlug must be 1 to 100 characters" })
    .max(SLUG_MAX_LENGTH, { error: "blogSlug must be 1 to 100 characters" })
    .regex(SLUG_PATTERN, {
      error: "blogSlug must contain only lowercase letters a-z, digits 0-9 and single hyphens between them",
    }),
  description: maxLengthString("description", BLOG_FIELD_MAX_LENGTHS.description),
  seoTitle: maxLengthString("seoTitle", BLOG_FIELD_MAX_LENGTHS.seoTitle),
  seoDescription: maxLengthString("seoDescription", BLOG_FIELD_MAX_LENGTHS.seoDescription),
  content: maxLengthString("content", BLOG_FIELD_MAX_LENGTHS.content),
  isPublic: strictBoolean("isPublic"),
  tags: tagsSchema,
  publishAt: publishAtSchema(),
  /** An image id; that it is an image of the blog's account is checked where the blog is written (src/server/blogs/cover-image.ts). */
  coverImage: z.string({ error: "coverImage must be an image id (a string) or null" }).nullable(),
  /** Writable until the blog has been public or emailed (src/server/blogs/update-blog.ts). */
  emailSubscribers: strictBoolean("emailSubscribers"),
  /** Member user ids, the primary first; that each is a current member is checked where the blog is written (src/server/blogs/authors.ts). */
  authors: authorsSchema(),
};

/** 1 to MAX_AUTHORS distinct user ids (docs/authors.md, Authors). */
function authorsSchema() {
  const message = `authors must be an array of 1 to ${MAX_AUTHORS} distinct member user ids, the primary first`;
  return z
    .array(z.string({ error: message }).min(1, { error: message }), { error: message })
    .min(1, { error: message })
    .max(MAX_AUTHORS, { error: message })
    .refine((ids) => new Set(ids).size === ids.length, { error: message });
}

/**
 * When a blog becomes public: an ISO 8601 date-time with `Z` or an offset, strictly in the
 * future when sent (docs/api.md, publishing); null cancels.
 */
function publishAtSchema() {
  return z.iso
    .datetime({ offset: true, error: "publishAt must be an ISO 8601 date-time with a time zone (e.g. 2026-12-01T09:00:00Z) or null" })
    .transform((value) => new Date(value))
    .refine((moment) => moment.getTime() > Date.now(), { error: "publishAt must be in the future (to publish now, send isPublic: true)" })
    .nullable();
}

/**
 * A boolean that only accepts true and false. trpc-to-openapi switches plain z.boolean() input
 * schemas to coercion (so "yes" would become true), mutating the schema object for every user of
 * it; it leaves pipes alone.
 */
export function strictBoolean(field: string) {
  return z.boolean({ error: `${field} must be a boolean` }).pipe(z.boolean());
}

function maxLengthString(field: string, max: number) {
  return z
    .string({ error: `${field} must be a string` })
    .max(max, { error: `${field} must be at most ${max} characters` });
}

/** The message of a required field that is missing or blank. */
export function requiredMessage(field: string): string {
  return `${field} is required`;
}

/**
 * The params of the issue a required field raises when it is missing, null or blank. The API answers
 * that issue with MISSING_REQUIRED_FIELD whatever its message says (src/server/api/errors.ts).
 */
const MISSING_FIELD_PARAMS = { missingField: true } as const;

export function isMissingFieldIssue(issue: z.core.$ZodIssue): boolean {
  return issue.code === "custom" && issue.params?.missingField === true;
}

/**
 * A check that raises the missing-field issue for an absent or blank value. `when` runs it even after
 * the type check has refused an undefined or null value, so such a value carries the marker too.
 */
export function presenceCheck(field: string) {
  return z.refine((value: unknown) => !(value == null || (typeof value === "string" && value.trim() === "")), {
    error: requiredMessage(field),
    params: MISSING_FIELD_PARAMS,
    when: () => true,
  });
}

/** The title when creating: missing or blank is "required", then the title rule applies. */
export const requiredTitle = z
  .string({ error: (issue) => (issue.input == null ? requiredMessage("title") : "title must be a string") })
  .check(presenceCheck("title"))
  .pipe(blogFieldSchemas.title);

/** Every writable field but the title, each optional: what a create or a partial update may send. */
export const optionalBlogFields = {
  blogSlug: blogFieldSchemas.blogSlug.optional(),
  description: blogFieldSchemas.description.optional(),
  content: blogFieldSchemas.content.optional(),
  isPublic: blogFieldSchemas.isPublic.optional(),
  seoTitle: blogFieldSchemas.seoTitle.optional(),
  seoDescription: blogFieldSchemas.seoDescription.optional(),
  tags: blogFieldSchemas.tags.optional(),
  publishAt: blogFieldSchemas.publishAt.optional(),
  coverImage: blogFieldSchemas.coverImage.optional(),
  emailSubscribers: blogFieldSchemas.emailSubscribers.optional(),
  /** null is the same as absent: the creator on create, unchanged on update. */
  authors: blogFieldSchemas.authors.nullable().optional(),
};
