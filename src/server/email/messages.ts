import "server-only";
import { z } from "zod";

/**
 * Every email the app sends, rendered from one description (docs/security.md, Email): a subject,
 * a plain-text part, an HTML part and the links it carries (the development log prints them).
 */

/** Security notices: something changed on the account; the owner should act if it was not them. */
export const NOTICE_KINDS = {
  "password-changed": "Your password was changed",
  "email-changed": "Your account's email address was changed",
  "api-key-created": "A new API key was created",
  "api-key-rolled": "An API key was rolled",
  "two-factor-enabled": "Two-factor sign-in was turned on",
  "two-factor-disabled": "Two-factor sign-in was turned off",
  "backup-codes-replaced": "New backup codes were made, and the old ones no longer work",
  "passkey-added": "A passkey was added",
  "passkey-removed": "A passkey was removed",
  "passkeys-removed": "Your passkeys were removed",
} as const;

export type NoticeKind = keyof typeof NOTICE_KINDS;

/**
 * What to send and to whom; the job's payload (src/server/email/send-email.ts). Every word is the
 * app's but `name` and `detail`, which account-emails.ts gives only for an address the account has
 * proven (docs/security.md, Text in emails); the two kinds sent to an address not yet proven have none.
 * A subscription's confirmation names the publication the address was subscribed to (`publication`,
 * its title): what the reader asked for, in the words they read it under. An invitation names the
 * publication and the inviter (a member whose address is proven: src/server/members/members.ts),
 * so the invited person knows whom they would join.
 */
export const emailSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("verify-email"), to: z.string(), url: z.string() }),
  z.object({ kind: z.literal("confirm-new-email"), to: z.string(), url: z.string() }),
  z.object({ kind: z.literal("reset-password"), to: z.string(), name: z.string().optional(), url: z.string() }),
  z.object({ kind: z.literal("account-exists"), to: z.string(), name: z.string().optional(), signInUrl: z.string(), resetUrl: z.string() }),
  z.object({ kind: z.literal("confirm-subscription"), to: z.string(), publication: z.string(), url: z.string() }),
  z.object({ kind: z.literal("invitation"), to: z.string(), publication: z.string(), inviter: z.string().optional(), role: z.string(), url: z.string() }),
  z.object({
    kind: z.literal("notice"),
    to: z.string(),
    name: z.string().optional(),
    notice: z.enum(Object.keys(NOTICE_KINDS) as [NoticeKind, ...NoticeKind[]]),
    detail: z.string().optional(),
    settingsUrl: z.string(),
  }),
]);

export type Email = z.infer<typeof emailSchema>;

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
  links: string[];
}

interface Content {
  subject: string;
  paragraphs: string[];
  action?: { label: string; url: string };
  after?: string[];
}

function contentOf(email: Email): Content {
  // By kind, not by field: a verification queued before this rule may still carry a name.
  const greeting = email.kind !== "verify-email" && email.kind !== "confirm-new-email" && email.kind !== "confirm-subscription" && email.kind !== "invitation" && email.name ? `Hello ${email.name},` : "Hello,";
  switch (email.kind) {
    case "verify-email":
      return {
        subject: "Confirm your email address",
        paragraphs: [greeting, "Confirm this address to finish setting up your Blog Manager account."],
        action: { label: "Confirm my address", url: email.url },
        after: ["The link is valid for 24 hours. If you did not sign up, ignore this email."],
      };
    case "confirm-new-email":
      return {
        subject: "Confirm your new email address",
        paragraphs: [greeting, "Someone (we hope you) asked to make this the new email address of your Blog Manager account."],
        action: { label: "Confirm the new address", url: email.url },
        after: ["The link is valid for 24 hours. Until you follow it, your account keeps its current address. If you did not ask, ignore this email."],
      };
    case "reset-password":
      return {
        subject: "Reset your password",
        paragraphs: [greeting, "Someone (we hope you) asked to reset the password of your Blog Manager account."],
        action: { label: "Choose a new password", url: email.url },
        after: ["The link is valid for 1 hour and works once; using it signs you out everywhere. If you did not ask, ignore this email: your password stays as it is."],
      };
    case "account-exists":
      return {
        subject: "You already have an account",
        paragraphs: [greeting, "Someone (we hope you) tried to sign up with this address, which already has a Blog Manager account. No second account was made."],
        action: { label: "Sign in", url: email.signInUrl },
        after: [`Forgot your password? Reset it: ${email.resetUrl}`],
      };
    case "confirm-subscription":
      return {
        subject: `Confirm your subscription to ${email.publication}`,
        paragraphs: [greeting, `Someone (we hope you) asked for the new posts of ${email.publication} to be emailed to this address.`],
        action: { label: "Confirm my subscription", url: email.url },
        after: ["The link is valid for 7 days. Until you follow it, no posts are sent. If you did not ask, ignore this email: nothing more will come."],
      };
    case "invitation":
      return {
        subject: `Join ${email.publication} on Blog Manager`,
        paragraphs: [
          greeting,
          `${email.inviter ? `${email.inviter} invites you` : "You are invited"} to join ${email.publication} on Blog Manager as ${/^[aeiou]/.test(email.role) ? "an" : "a"} ${email.role}.`,
        ],
        action: { label: `Join ${email.publication}`, url: email.url },
        after: ["The invitation is valid for 7 days and works once, signed in with this address. If you did not expect it, ignore this email."],
      };
    case "notice":
      return {
        subject: NOTICE_KINDS[email.notice],
        paragraphs: [greeting, `${NOTICE_KINDS[email.notice]} on your Blog Manager account${email.detail ? `: ${email.detail}` : "."}`],
        action: { label: "Review your account", url: email.settingsUrl },
        after: ["If this was you, there is nothing to do. If not, reset your password at once and review your API keys."],
      };
  }
}

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character]!);
}

export function renderEmail(email: Email): RenderedEmail {
  const { subject, paragraphs, action, after = [] } = contentOf(email);
  const text = [...paragraphs, ...(action ? [`${action.label}: ${action.url}`] : []), ...after, "— Blog Manager"].join("\n\n");
  const html = [
    `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#111">`,
    ...paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`),
    ...(action
      ? [`<p><a href="${escapeHtml(action.url)}" style="display:inline-block;padding:8px 16px;background:#111;color:#fff;text-decoration:none;border-radius:6px">${escapeHtml(action.label)}</a></p>`]
      : []),
    ...after.map((paragraph) => `<p style="color:#555">${escapeHtml(paragraph)}</p>`),
    `<p>— Blog Manager</p></body></html>`,
  ].join("\n");
  const links = [...text.matchAll(/https?:\/\/\S+/g)].map((match) => match[0]);
  return { subject, text, html, links };
}
