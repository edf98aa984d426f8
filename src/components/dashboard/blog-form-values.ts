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
 * What the owner edits; coverImage an image id, or null for none. The status (public, scheduled)
 * is not among them: it changes by an action of its own (publish-control.tsx), saved at once.
 */
export type Values = Record<TextField, string> & { allowApiAccess: boolean; tags: string[]; coverImage: string | null; authors: string[] };
/** Fields the server may name in a refusal, besides the text fields. */
const OTHER_FIELDS = ["tags", "publishAt", "coverImage", "authors"] as const;
export type Errors = Partial<Record<TextField | (typeof OTHER_FIELDS)[number] | "form", string>>;

export const EMPTY: Values = {
  title: "",
  blogSlug: "",
  description: "",
  content: "",
  seoTitle: "",
  seoDescription: "",
  allowApiAccess: true,
  tags: [],
  coverImage: null,
  /** None chosen: the server makes the member creating the blog its author. */
  authors: [],
};

/** A moment as the date-time picker holds it, "YYYY-MM-DDTHH:mm" in the owner's time zone; "" for none. */
export function toLocalInput(iso: string | null): string {
  if (!iso) return "";
  const at = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

/** The date-time picker's value as a moment (ISO), or null for none. */
export function fromLocalInput(local: string): string | null {
  return local ? new Date(local).toISOString() : null;
}

/** The form's values of a stored blog. */
export function valuesOf(blog: BlogView): Values {
  const { title, blogSlug, description, content, seoTitle, seoDescription, allowApiAccess, tags, coverImage, authors } = blog;
  return { title, blogSlug, description, content, seoTitle, seoDescription, allowApiAccess, tags, coverImage, authors };
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

const FIELDS = Object.keys(EMPTY) as (keyof Values)[];

/** Whether two values of a field differ as stored: text is stored without surrounding whitespace. */
const fieldDiffers = (a: Values[keyof Values], b: Values[keyof Values]) =>
  typeof a === "string" && typeof b === "string" ? a.trim() !== b.trim() : JSON.stringify(a) !== JSON.stringify(b);

/** Whether the form holds changes not saved yet. */
export function differs(values: Values, saved: Values): boolean {
  return FIELDS.some((field) => fieldDiffers(values[field], saved[field]));
}

/**
 * The form's values once `sent` is stored as `stored`: a field the owner has not touched since
 * takes what the server made of it (a slug derived from the title); one they have changed meanwhile
 * keeps their text, and so does text the server only trimmed (the caret stays after a trailing space).
 */
export function afterSave(current: Values, sent: Values, stored: Values): Values {
  const next: Record<string, unknown> = { ...current };
  for (const field of FIELDS) {
    if (current[field] === sent[field] && fieldDiffers(stored[field], sent[field])) next[field] = stored[field];
  }
  return next as Values;
}

/** A text's length against its maximum, as a field's hint shows it. */
export function characterCount(text: string, max: number): string {
  return `${text.length.toLocaleString("en")} / ${max.toLocaleString("en")}`;
}
