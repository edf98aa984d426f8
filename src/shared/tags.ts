import { z } from "zod";

/** At most this many tags a blog, each 1 to TAG_MAX_LENGTH characters after trimming (docs/api.md, tags). */
export const MAX_TAGS = 10;
export const TAG_MAX_LENGTH = 50;

/**
 * Text as a slug: accents dropped, lowercase, runs of anything but a-z and 0-9 as one hyphen, none
 * at the ends ("Hello, Wörld!" -> "hello-world"; may be empty). The database computes tag slugs
 * with the same steps (blog_tag_slug, the publishing migration).
 */
export function slugText(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/** The tag's slug: `Next.js` and `next-js` are one tag, `next-js`. */
export const tagSlug = slugText;

/**
 * A blog's tags as sent: each trimmed and kept as written; a tag repeated under another spelling
 * (same slug) is kept once, first spelling first.
 */
export const tagsSchema = z
  .array(
    z
      .string({ error: "tags must be strings" })
      .trim()
      .min(1, { error: `each tag must be 1 to ${TAG_MAX_LENGTH} characters` })
      .max(TAG_MAX_LENGTH, { error: `each tag must be 1 to ${TAG_MAX_LENGTH} characters` })
      .refine((tag) => tagSlug(tag) !== "", { error: "each tag must contain a letter a-z or a digit 0-9" }),
    { error: "tags must be an array of strings" },
  )
  .transform((tags) => {
    const seen = new Set<string>();
    return tags.filter((tag) => !seen.has(tagSlug(tag)) && seen.add(tagSlug(tag)));
  })
  .refine((tags) => tags.length <= MAX_TAGS, { error: `tags must hold at most ${MAX_TAGS} tags` });
