import "server-only";
import { z } from "zod";

/**
 * An ISO 8601 moment given as a string: a date-time with `Z` or an offset, or a bare date
 * (midnight UTC). Real calendar dates only. Parses to a Date.
 */
export function isoTimestampSchema(field: string) {
  return z
    .union([z.iso.datetime({ offset: true }), z.iso.date()], {
      error: `${field} must be an ISO 8601 timestamp, e.g. 2026-01-31T12:00:00Z`,
    })
    .transform((value) => new Date(value));
}
