import { asSentence } from "~/lib/format";
import type { BlogView } from "~/server/blogs/blog-view";
import { optionalBlogFields, requiredTitle } from "~/shared/blog-fields";
import { fieldErrors } from "~/trpc/react";

export const TEXT_FIELDS = ["title", "blogSlug", "description", "content", "seoTitle", "seoDescription"] as const;
export type TextField = (typeof TEXT_FIELDS)[number];
/** How the form names each field: the API's messages start with the field's API name. */
const FIELD_LABELS: Record<TextField, string> = {
  title: "Title",
  blogSlug: "Slug",
  description: "Description",
  content: "Content",
  seoTitle: "SEO title",
  seoDescription: "SEO description",
};
/** The API's rule of each text field, with its message (src/shared/blog-fields.ts). */
const FIELD_RULES = { ...optionalBlogFields, title: requiredTitle } satisfies Record<TextField, unknown>;
/**
 * publishAt as the date-time picker holds it: local time, "YYYY-MM-DDTHH:mm", or "" for none;
 * coverImage an image id, or null for none.
 */
export type Values = Record<TextField, string> & { isPublic: boolean; allowApiAccess: boolean; tags: string[]; publishAt: string; coverImage: string | null };
/** Fields the server may name in a refusal, besides the text fields. */
const OTHER_FIELDS = ["tags", "publishAt", "coverImage"] as const;
export type Errors = Partial<Record<TextField | (typeof OTHER_FIELDS)[number] | "form", string>>;

export const EMPTY: Values = {
  title: "",
  blogSlug: "",
  description: "",
  content: "",
  seoTitle: "",
  seoDescription: "",
  isPublic: false,
  allowApiAccess: true,
  tags: [],
  publishAt: "",
  coverImage: null,
};

/** A moment as the date-time picker shows it, in the owner's time zone. */
function toLocalInput(iso: string | null): string {
  if (!iso) return "";
  const at = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

/** The form's values of a stored blog. */
export function valuesOf(blog: BlogView): Values {
  const { title, blogSlug, description, content, seoTitle, seoDescription, isPublic, allowApiAccess, tags, coverImage } = blog;
  return { title, blogSlug, description, content, seoTitle, seoDescription, isPublic, allowApiAccess, tags, coverImage, publishAt: toLocalInput(blog.publishAt) };
}

/** The API's message about a field in the form's words: "blogSlug must…" reads "Slug must…." */
function inFormWords(field: TextField, message: string): string {
  return asSentence(message.startsWith(`${field} `) ? FIELD_LABELS[field] + message.slice(field.length) : message);
}

/** A field's problem by the API's own rule and message, or undefined. An empty slug is derived on create. */
export function fieldError(field: TextField, value: string, isNew: boolean): string | undefined {
  if (field === "blogSlug" && value === "" && isNew) return undefined;
  const result = FIELD_RULES[field].safeParse(value);
  const message = result.success ? undefined : result.error.issues[0]?.message;
  return message && inFormWords(field, message);
}

export function validate(values: Values, isNew: boolean): Errors {
  const errors: Errors = {};
  for (const field of TEXT_FIELDS) {
    const error = fieldError(field, values[field], isNew);
    if (error) errors[field] = error;
  }
  return errors;
}

/** The field a server-side refusal is about, with the server's words. */
export function serverErrors(error: unknown): Errors {
  const errors = fieldErrors(error, [...TEXT_FIELDS, ...OTHER_FIELDS]);
  const field = TEXT_FIELDS.find((f) => errors[f] !== undefined);
  return field ? { [field]: inFormWords(field, errors[field]!) } : errors;
}

/** Whether the form holds changes not saved yet. */
export function differs(values: Values, saved: Values): boolean {
  return (Object.keys(EMPTY) as (keyof Values)[]).some((field) => JSON.stringify(values[field]) !== JSON.stringify(saved[field]));
}

/** A text's length against its maximum, as a field's hint shows it. */
export function characterCount(text: string, max: number): string {
  return `${text.length.toLocaleString("en")} / ${max.toLocaleString("en")}`;
}
