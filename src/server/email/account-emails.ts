import "server-only";
// The emails of the account flows better-auth runs (src/server/auth/) and the security notices
// (docs/security.md, Email), queued with their links on the app's own pages.
import { log } from "~/server/runtime/log";
import { configuredOrigin, requestOrigin } from "~/server/http/public-origin";
import { queueEmail } from "./queue-email";
import type { Email, NoticeKind } from "./messages";
import { withinRecipientCap } from "./recipient-cap";
import { dropResetLink, dropResetLinks } from "./reset-links";

/** An account as its emails see it: `emailVerified` says whether `email` is proven to be its owner's. */
interface Recipient {
  email: string;
  name: string;
  emailVerified: boolean;
}

/**
 * The account's own words (its name), only for an address the account has proven: whoever signs up
 * with someone else's address chooses the name, and the email would carry it to them
 * (docs/security.md, Text in emails).
 */
const nameIfProven = (user: Recipient) => (user.emailVerified ? user.name : undefined);

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
 * Answers whether the email was queued: not without an origin, nor past its address's cap (which
 * only the notices to a verified address skip).
 */
async function queueWithLinks(origin: string, email: (linkOrigin: string) => Email, { capped = true } = {}): Promise<boolean> {
  const linkOrigin = emailLinkOrigin(origin);
  if (!linkOrigin) return false;
  const message = email(linkOrigin);
  if (capped && !(await withinRecipientCap(message.to))) {
    log.warn({ email: { kind: message.kind } }, "email not sent: its address has received as many as it may for now (docs/security.md, Emails per address)");
    return false;
  }
  await queueEmail(message);
  return true;
}

/**
 * The origin an email's links on the app's host start with, for a request that reached `origin`:
 * the configured one, else `origin` only when it names this machine; undefined (logged) otherwise.
 */
export function emailLinkOrigin(origin: string): string | undefined {
  const linkOrigin = configuredOrigin ?? (isThisMachine(origin) ? origin : undefined);
  if (!linkOrigin) log.error({ origin }, "email not sent: set BETTER_AUTH_URL, the origin emailed links start with (the request's Host may be forged)");
  return linkOrigin;
}

function isThisMachine(origin: string): boolean {
  const { hostname } = new URL(origin);
  return hostname === "localhost" || hostname.endsWith(".localhost") || hostname === "[::1]" || /^127(\.\d{1,3}){3}$/.test(hostname);
}

function verifyLink(origin: string, token: string, landing: string): string {
  return `${origin}/api/auth/verify-email?token=${encodeURIComponent(token)}&callbackURL=${encodeURIComponent(landing)}`;
}

/** The sign-up verification, or the confirmation of a new address (sent to it) when the token changes the email; both to an address not yet proven. */
export async function queueVerificationEmail(user: Pick<Recipient, "email">, origin: string, token: string): Promise<void> {
  const changesEmail = verificationTokenClaims(token)?.updateTo !== undefined;
  await queueWithLinks(origin, (linkOrigin) =>
    changesEmail
      ? { kind: "confirm-new-email", to: user.email, url: verifyLink(linkOrigin, token, EMAIL_CHANGED_PATH) }
      : { kind: "verify-email", to: user.email, url: verifyLink(linkOrigin, token, VERIFIED_PATH) },
  );
}

/** Emails the reset link `token`, which becomes the account's only working one; one not emailed (capped) never works. */
export async function queuePasswordResetEmail(user: Recipient & { id: string }, origin: string, token: string): Promise<void> {
  const sent = await queueWithLinks(origin, (linkOrigin) => ({
    kind: "reset-password",
    to: user.email,
    name: nameIfProven(user),
    url: `${linkOrigin}/reset-password?token=${encodeURIComponent(token)}`,
  }));
  await (sent ? dropResetLinks(user.id, token) : dropResetLink(token));
}

/** After a reset: the account's other links stop working, and the owner is told. */
export async function passwordWasReset(user: Recipient & { id: string }, origin: string): Promise<void> {
  await dropResetLinks(user.id);
  await queueNotice(user, origin, "password-changed");
}

/** Instead of a second account for an address that has one. */
export async function queueAccountExistsEmail(user: Recipient, origin: string): Promise<void> {
  await queueWithLinks(origin, (linkOrigin) => ({
    kind: "account-exists",
    to: user.email,
    name: nameIfProven(user),
    signInUrl: `${linkOrigin}/sign-in`,
    resetUrl: `${linkOrigin}/forgot-password`,
  }));
}

/** A security notice to the signed-in owner of a dashboard request (src/server/api/routers/keys). */
export function queueOwnerNotice(owner: Recipient, headers: Pick<Headers, "get">, notice: NoticeKind, detail?: string): Promise<void> {
  return queueNotice(owner, requestOrigin(headers), notice, detail);
}

/**
 * `detail` (a key's or passkey's name, the new address) is the account's words too: left out like
 * its name. A notice to a verified address is not counted: an attacker spending the owner's cap must
 * not silence it; to an unverified one it is, as the account's holder may not own the address
 * (docs/security.md, Emails per address).
 */
export async function queueNotice(user: Recipient, origin: string, notice: NoticeKind, detail?: string): Promise<void> {
  await queueWithLinks(
    origin,
    (linkOrigin) => ({
      kind: "notice",
      to: user.email,
      name: nameIfProven(user),
      notice,
      detail: user.emailVerified ? detail : undefined,
      settingsUrl: `${linkOrigin}/dashboard/account`,
    }),
    { capped: !user.emailVerified },
  );
}

/** Where an invitation's link lands: the page that joins it (src/app/invitations/[id]/page.tsx). */
export function invitationPath(invitationId: string): string {
  return `/invitations/${encodeURIComponent(invitationId)}`;
}

/**
 * An invitation to join a publication (docs/teams.md), naming the publication and the inviter,
 * who must have a verified address to invite (src/server/members/members.ts). Counted against the
 * invited address's cap like any email a stranger can trigger (docs/security.md, Emails per address).
 */
export async function queueInvitationEmail(
  invitation: { to: string; invitationId: string; role: string; publication: string; inviter: Recipient },
  origin: string,
): Promise<void> {
  await queueWithLinks(origin, (linkOrigin) => ({
    kind: "invitation",
    to: invitation.to,
    publication: invitation.publication,
    inviter: nameIfProven(invitation.inviter),
    role: invitation.role,
    url: `${linkOrigin}${invitationPath(invitation.invitationId)}`,
  }));
}
