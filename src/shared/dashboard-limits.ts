/** Limits of the dashboard's /api/trpc (docs/security.md); the browser's client reads them too. */

/** The largest request body read: a blog at its largest fits well within it. */
export const MAX_DASHBOARD_BODY_BYTES = 2 * 1024 * 1024;

/** The most calls one request may batch. */
export const MAX_BATCH_CALLS = 10;

/** The one procedure whose body is a file, a form: it may carry MAX_IMAGE_REQUEST_BYTES (src/shared/images.ts). */
export const UPLOAD_PROCEDURE = "images.upload";
/** The other procedure taking a form: an export to import (at most MAX_IMPORT_BYTES, streamed to disk: src/server/api/import-upload.ts). */
export const IMPORT_PROCEDURE = "imports.create";
/** Sent with the upload, a form: no HTML form can set it, as none can send JSON (docs/security.md, Requests from other sites). */
export const UPLOAD_REQUEST_HEADER = { name: "X-Requested-With", value: "XMLHttpRequest" } as const;

/**
 * The subscriber import sends its CSV file (at most 5 MB: src/server/subscribers/csv.ts) as a JSON
 * string, alone: this many bytes leave room for JSON's escapes of quotes and line ends.
 */
export const SUBSCRIBER_IMPORT_PROCEDURE = "subscribers.import";
export const MAX_SUBSCRIBER_IMPORT_REQUEST_BYTES = 12 * 1024 * 1024;
