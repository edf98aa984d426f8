import "server-only";

/**
 * The addresses in a subscriber's emails (docs/newsletters.md), under the publication's home
 * (src/server/public-site/home.ts): absolute, no trailing slash.
 */

/** The confirmation link: where the confirmation email's token is followed. */
export const confirmationUrl = (home: string, token: string) => `${home}/subscribe/confirm?token=${encodeURIComponent(token)}`;

/** The unsubscribe (and manage) page of the subscriber whose secret is `token`. */
export const unsubscribeUrl = (home: string, token: string) => `${home}/unsubscribe?token=${encodeURIComponent(token)}`;
