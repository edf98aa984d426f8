/** Limits of the dashboard's /api/trpc (docs/security.md); the browser's client reads them too. */

/** The largest request body read: a blog at its largest fits well within it. */
export const MAX_BODY_BYTES = 2 * 1024 * 1024;

/** The most calls one request may batch. */
export const MAX_BATCH_CALLS = 10;
