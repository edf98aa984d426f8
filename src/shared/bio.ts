/**
 * A person's bio, shown with their name and picture on the posts they author and on their author
 * page (docs/public-blog.md, Authors): plain text (never Markdown or HTML), at most 300 characters
 * after trimming, line breaks allowed (`\r\n` kept as `\n`), no other control characters. Empty:
 * no bio. The same rule for the account settings form and better-auth's endpoints
 * (src/server/auth/field-guards.ts).
 */
export const BIO_MAX_LENGTH = 300;

export const BIO_RULE = `bio must be at most ${BIO_MAX_LENGTH} characters of plain text, without control characters but line breaks`;

/** The bio as stored: trimmed, line breaks as `\n`. */
export const normalizedBio = (bio: string) => bio.replace(/\r\n?/g, "\n").trim();

/** Why `bio` (normalized) can't be a bio, or null when it can. */
export function bioProblem(bio: string): string | null {
  if ([...bio].length > BIO_MAX_LENGTH || /[^\P{Cc}\n]/u.test(bio)) return BIO_RULE;
  return null;
}
