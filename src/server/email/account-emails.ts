import "server-only";
// The emails of the account flows better-auth runs (src/server/auth.ts) and the security notices
// (docs/security.md, Email), queued with their links on the app's own pages.
import { log } from "~/server/log";
import { configuredOrigin, requestOrigin } from "~/server/public-origin";
import { queueEmail } from "./queue-email";
import type { Email, NoticeKind } from "./messages";

interface Recipient {
  email: string;
  name: string;
}

/** Where a verification link lands: the dashboard says what happened (src/components/dashboard/email-verification-banner.tsx). */
export const VERIFIED_PATH = "/dashboard?verified=1";
export const EMAIL_CHANGED_PATH = "/dashboard/account?email-changed=1";

/** What better-auth put in a verification token (a JWT it signed): read only to word the email and the notice, never trusted alone. */
export interface VerificationTokenClaims {
  email: string;
  updateTo?: string;
  requestType?: string;
  userId?: string;
}

export function verificationTokenClaims(token: unknown): VerificationTokenClaims | undefined {
  if (typeof token !== "string") return undefined;
  try {
    const claims: unknown = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8"));
    return claims && typeof claims === "object" && typeof (claims as VerificationTokenClaims).email === "string" ? (claims as VerificationTokenClaims) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Queues an email whose links start with the app's origin: the configured one, else the request's
 * only when that names this machine (a developer's `npm run dev`). Any other Host may be forged:
 * a reset requested with `Host: evil.example` would mail the owner a link handing their token to
 * that site (docs/security.md, Email), so without BETTER_AUTH_URL nothing is sent and the log says why.
 */
function queueWithLinks(origin: string, email: (linkOrigin: string) => Email): Promise<void> {
  const linkOrigin = configuredOrigin ?? (isThisMachine(origin) ? origin : undefined);
  if (linkOrigin) return queueEmail(email(linkOrigin));
  log.error({ origin }, "email not sent: set BETTER_AUTH_URL, the origin emailed links start with (the request's Host may be forged)");
  return Promise.resolve();
}

function isThisMachine(origin: string): boolean {
  const { hostname } = new URL(origin);
  return hostname === "localhost" || hostname.endsWith(".localhost") || hostname === "[::1]" || /^127(\.\d{1,3}){3}$/.test(hostname);
}

function verifyLink(origin: string, token: string, landing: string): string {
  return `${origin}/api/auth/verify-email?token=${encodeURIComponent(token)}&callbackURL=${encodeURIComponent(landing)}`;
}

/** The sign-up verification, or the confirmation of a new address (sent to it) when the token changes the email. */
export function queueVerificationEmail(user: Recipient, origin: string, token: string): Promise<void> {
  const changesEmail = verificationTokenClaims(token)?.updateTo !== undefined;
  return queueWithLinks(origin, (linkOrigin) =>
    changesEmail
      ? { kind: "confirm-new-email", to: user.email, name: user.name, url: verifyLink(linkOrigin, token, EMAIL_CHANGED_PATH) }
      : { kind: "verify-email", to: user.email, name: user.name, url: verifyLink(linkOrigin, token, VERIFIED_PATH) },
  );
}

export function queuePasswordResetEmail(user: Recipient, origin: string, token: string): Promise<void> {
  return queueWithLinks(origin, (linkOrigin) => ({ kind: "reset-password", to: user.email, name: user.name, url: `${linkOrigin}/reset-password?token=${encodeURIComponent(token)}` }));
}

/** Instead of a second account for an address that has one. */
export function queueAccountExistsEmail(user: Recipient, origin: string): Promise<void> {
  return queueWithLinks(origin, (linkOrigin) => ({ kind: "account-exists", to: user.email, name: user.name, signInUrl: `${linkOrigin}/sign-in`, resetUrl: `${linkOrigin}/forgot-password` }));
}

/** A security notice to the signed-in owner of a dashboard request (src/server/api/routers/keys). */
export function queueOwnerNotice(owner: Recipient, headers: Pick<Headers, "get">, notice: NoticeKind, detail?: string): Promise<void> {
  return queueNotice(owner, requestOrigin(headers), notice, detail);
}

export function queueNotice(user: Recipient, origin: string, notice: NoticeKind, detail?: string): Promise<void> {
  return queueWithLinks(origin, (linkOrigin) => ({ kind: "notice", to: user.email, name: user.name, notice, detail, settingsUrl: `${linkOrigin}/dashboard/account` }));
}
