import "server-only";
import { createHash } from "node:crypto";

/**
 * Entity tags of /api/v1's GET answers (docs/api.md, conditional requests): strong, the quoted
 * SHA-256 of the JSON body, so any change to what the answer says (a listed blog, a total, the
 * pagination) changes the tag, and equal tags mean byte-identical answers.
 */
export function entityTag(body: string): string {
  return `"${createHash("sha256").update(body).digest("base64url")}"`;
}

/**
 * Whether an If-None-Match or If-Match header names `tag` (or is `*`). If-None-Match compares
 * weakly (a `W/` prefix is ignored); If-Match strongly, so a weak tag never matches.
 */
export function headerNamesTag(header: string, tag: string, comparison: "weak" | "strong"): boolean {
  return header.split(",").some((listed) => {
    const candidate = listed.trim();
    if (candidate === "*") return true;
    return (comparison === "weak" ? candidate.replace(/^W\//, "") : candidate) === tag;
  });
}

/**
 * Whether an If-None-Match header names entity tags only: the one revalidation a 304 answers for
 * free (docs/api.md). A wildcard matches any current answer without the client knowing it, so it
 * earns nothing free.
 */
export function namesEntityTagsOnly(header: string | null): boolean {
  return header !== null && header.split(",").every((listed) => /^(W\/)?"[^"]*"$/.test(listed.trim()));
}
