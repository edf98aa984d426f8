import "server-only";
import { z } from "zod";
import { BLOG_CURSOR_MAX_LENGTH, BLOG_CURSOR_PATTERN, decodeBlogCursor } from "~/server/blogs/blog-cursor";
import { parseCalendarDate } from "~/shared/calendar-date";
import { TAG_MAX_LENGTH, tagSlug } from "~/shared/tags";

/**
 * Query parameters arrive as strings. These schemas parse them strictly (no "1e1", no " 5") and
 * fail with a message naming the parameter and its allowed range; the OpenAPI document shows
 * the type a client should send. The dashboard calls the same procedures with JSON, where an
 * integer may also arrive as a number, under the same rule.
 */

/** Nine digits at most, as a number or a string. */
const MAX_INTEGER_PARAM = 999_999_999;

export function integerParam(name: string, range: { min: number; max?: number; default: number }) {
  const rule =
    range.max === undefined
      ? `${name} must be an integer greater than or equal to ${range.min}`
      : `${name} must be an integer between ${range.min} and ${range.max}`;
  return z
    .union([z.string(), z.number()], { error: rule })
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return range.default;
      const n = typeof value === "number" ? value : /^\d{1,9}$/.test(value) ? Number(value) : NaN;
      if (!(Number.isInteger(n) && n >= range.min && n <= (range.max ?? MAX_INTEGER_PARAM))) {
        ctx.addIssue({ code: "custom", message: rule });
        return z.NEVER;
      }
      return n;
    })
    .meta({
      // The document states the integer a client sends, not the string-or-number union that reads it.
      override: ({ jsonSchema }) => {
        delete jsonSchema.anyOf;
        Object.assign(jsonSchema, { type: "integer", minimum: range.min, maximum: range.max ?? MAX_INTEGER_PARAM, default: range.default });
      },
    });
}

export function booleanParam(name: string) {
  const rule = `${name} must be true or false`;
  return z
    .string({ error: rule })
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return undefined;
      if (value === "true" || value === "false") return value === "true";
      ctx.addIssue({ code: "custom", message: rule });
      return z.NEVER;
    })
    .meta({ override: { type: "boolean" } });
}

/** One of `values`, exactly as written (optional at the call, after its meta, which the document keeps only there). */
export function enumParam<const T extends readonly [string, ...string[]]>(name: string, values: T) {
  return z.enum(values, { error: `${name} must be one of: ${values.join(", ")}` });
}

/** A tag as its slug or as written (docs/api.md, tags): given as its slug. */
export function tagParam(name: string) {
  const rule = `${name} must be a tag of 1 to ${TAG_MAX_LENGTH} characters with a letter a-z or a digit 0-9`;
  return z
    .string({ error: rule })
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return undefined;
      const slug = tagSlug(value);
      if (value.trim().length > TAG_MAX_LENGTH || slug === "") {
        ctx.addIssue({ code: "custom", message: rule });
        return z.NEVER;
      }
      return slug;
    })
    .meta({ override: { type: "string", maxLength: TAG_MAX_LENGTH } });
}

export function calendarDateParam(name: string) {
  const rule = `${name} must be a real calendar date in the form YYYY-MM-DD`;
  return z
    .string({ error: rule })
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return undefined;
      const date = parseCalendarDate(value);
      if (!date) {
        ctx.addIssue({ code: "custom", message: rule });
        return z.NEVER;
      }
      return date;
    })
    .meta({ override: { type: "string", format: "date", example: "2026-01-31" } });
}

export function blogCursorParam(name: string) {
  const rule = `${name} must be a pagination.nextCursor returned by this endpoint`;
  return z
    .string({ error: rule })
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return undefined;
      const cursor = decodeBlogCursor(value);
      if (!cursor) {
        ctx.addIssue({ code: "custom", message: rule });
        return z.NEVER;
      }
      return cursor;
    })
    .meta({ override: { type: "string", minLength: 1, maxLength: BLOG_CURSOR_MAX_LENGTH, pattern: BLOG_CURSOR_PATTERN.source } });
}
