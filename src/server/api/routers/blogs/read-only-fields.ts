import type { BlogView } from "~/server/blogs/blog-view";
import { ApiError } from "../../errors";
import type { ReadOnlyFields } from "./schemas";

/**
 * Read-only fields sent in a body must equal the blog's current values (so a client can send back
 * what it read); on create there is no current blog, so only allowApiAccess: true passes.
 */
export function assertReadOnlyFieldsUnchanged(sent: ReadOnlyFields, current: BlogView | null): void {
  if (sent.allowApiAccess === false) {
    throw readOnly("allowApiAccess", "allowApiAccess is changed only in the dashboard (blog settings, Allow API Access)");
  }
  for (const field of ["id", "createdAt", "updatedAt"] as const) {
    const value = sent[field];
    if (value === undefined) continue;
    if (!current) throw readOnly(field, `${field} is read-only and set by the server`);
    const same = field === "id" ? value === current.id : Date.parse(value) === Date.parse(current[field]);
    if (!same) throw readOnly(field, `${field} is read-only and differs from the blog's current value`);
  }
}

function readOnly(field: string, details: string): ApiError {
  return new ApiError("INVALID_PARAMETER", `Invalid parameter: ${field}`, details);
}
