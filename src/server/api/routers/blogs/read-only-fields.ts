import "server-only";
import type { BlogScope } from "~/server/blogs/blog-scope";
import type { BlogView } from "~/server/blogs/blog-view";
import { ApiError } from "../../errors";
import type { ReadOnlyFields } from "./schemas";

/**
 * A create's or update's fields, split into the changes the caller may make and the read-only
 * fields it sent back, to be checked. Allow API Access is the owner's to set; for a key it is
 * read-only, true for every blog it sees (README, The API). The owner's other read-only fields
 * are ignored, whatever they say (the dashboard never changes them).
 */
export function splitBlogInput<T extends ReadOnlyFields>(
  scope: BlogScope,
  input: T,
): { changes: Omit<T, keyof ReadOnlyFields> & { allowApiAccess?: boolean }; readOnly: ReadOnlyFields } {
  const { id, createdAt, updatedAt, allowApiAccess, status, publishedAt, emailedAt, ...changes } = input;
  if (scope.apiAccessOnly) return { changes, readOnly: { id, createdAt, updatedAt, allowApiAccess, status, publishedAt, emailedAt } };
  return { changes: { ...changes, allowApiAccess }, readOnly: {} };
}

/**
 * Read-only fields sent in a body must equal the blog's current values (so a client can send back
 * what it read); on create there is no current blog, so only allowApiAccess: true passes.
 */
export function assertReadOnlyFieldsUnchanged(sent: ReadOnlyFields, current: BlogView | null): void {
  if (sent.allowApiAccess === false) {
    throw readOnly("allowApiAccess", "allowApiAccess is changed only in the dashboard (blog settings, Allow API Access)");
  }
  for (const field of ["id", "status", "createdAt", "updatedAt", "publishedAt", "emailedAt"] as const) {
    const value = sent[field];
    if (value === undefined) continue;
    if (!current) throw readOnly(field, `${field} is read-only and set by the server`);
    const now = current[field];
    const same = value === null || now === null || field === "id" || field === "status" ? value === now : Date.parse(value) === Date.parse(now);
    if (!same) throw readOnly(field, `${field} is read-only and differs from the blog's current value`);
  }
}

function readOnly(field: string, details: string): ApiError {
  return new ApiError("INVALID_PARAMETER", `Invalid parameter: ${field}`, details);
}
