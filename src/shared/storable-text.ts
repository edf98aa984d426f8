/**
 * Text PostgreSQL can store as it was sent (docs/api.md, writing rules): no NUL character, which
 * a `text` column refuses, and no unpaired UTF-16 surrogate (JSON's "\ud800"), which would reach
 * the database as U+FFFD, a silent change. One rule for every text input of both doors and the CLI.
 */
const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function textProblem(field: string, value: string): string | null {
  if (value.includes("\u0000")) return `${field} must not contain NUL characters`;
  if (UNPAIRED_SURROGATE.test(value)) return `${field} must be valid Unicode text (it holds an unpaired surrogate)`;
  return null;
}

/**
 * The first text anywhere in `input` (strings in object fields and array items, and the field
 * names themselves) that breaks the rule, named by its path ("tags.2"), or null.
 */
export function findUnstorableText(input: unknown, path = ""): { field: string; problem: string } | null {
  if (typeof input === "string") {
    const field = path || "input";
    const problem = textProblem(field, input);
    return problem ? { field, problem } : null;
  }
  if (typeof input !== "object" || input === null) return null;
  for (const [key, value] of Object.entries(input)) {
    const field = path ? `${path}.${key}` : key;
    const keyProblem = textProblem(field, key);
    const found = keyProblem ? { field, problem: keyProblem } : findUnstorableText(value, field);
    if (found) return found;
  }
  return null;
}
