import "server-only";
// How many emails anyone may have the app send one address (docs/security.md, Emails per
// address): counted in the rate-limit store, so every endpoint and instance shares the count.
import { createHash } from "node:crypto";
import { configuredRateLimiter } from "~/server/ratelimit/configured";

/**
 * The emails one address may receive unasked (verification, email-change confirmation, reset,
 * "you already have an account"), in each of these fixed windows: above what an owner signing up,
 * resending a link and resetting a password ever asks for, while an attacker, from however many
 * client addresses, gets at most 5 into a victim's inbox a quarter hour and 20 a day.
 */
export const RECIPIENT_EMAIL_LIMITS = [
  { limit: 5, windowSeconds: 15 * 60 },
  { limit: 20, windowSeconds: 24 * 60 * 60 },
] as const;

/**
 * The address as one inbox: case and a `+tag` (which most providers deliver to the same mailbox)
 * make no new one; kept as a digest, so the store holds no addresses.
 */
function inboxSubject(address: string): string {
  const normalized = address.trim().toLowerCase().replace(/\+[^@]*@/, "@");
  return createHash("sha256").update(normalized).digest("hex");
}

/** Counts one email to `address`: false once one of its windows is spent (then nothing is sent). */
export async function withinRecipientCap(address: string): Promise<boolean> {
  const subject = inboxSubject(address);
  for (const { limit, windowSeconds } of RECIPIENT_EMAIL_LIMITS) {
    if (!(await configuredRateLimiter("email-recipient-cap").consume(`${windowSeconds}:${subject}`, limit, windowSeconds)).success) return false;
  }
  return true;
}
