/**
 * The suite's mailbox (scripts/lib/mailbox.ts), which receives every email the suite's server
 * sends: messages read by recipient, so each test uses addresses of its own.
 */
import type { CapturedEmail } from "../../scripts/lib/mailbox";

export type { CapturedEmail };

function mailboxUrl(path: string, to: string): string {
  const base = process.env.MAILBOX_URL;
  if (!base) throw new Error("MAILBOX_URL is not set: run the tests with npm test, which starts the mailbox");
  return `${base}${path}?to=${encodeURIComponent(to)}`;
}

export async function emailsTo(to: string): Promise<CapturedEmail[]> {
  const response = await fetch(mailboxUrl("/messages", to));
  return ((await response.json()) as { messages: CapturedEmail[] }).messages;
}

/** Waits until `to` has received `count` emails (the send job runs moments after the request), and returns them. */
export async function waitForEmails(to: string, count = 1, timeoutMs = 20_000): Promise<CapturedEmail[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const messages = await emailsTo(to);
    if (messages.length >= count) return messages;
    if (Date.now() > deadline) throw new Error(`${to} received ${messages.length} email(s) within ${timeoutMs} ms, expected ${count}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The last email to `to` once it has received `count`, and its first link. */
export async function waitForLink(to: string, count = 1): Promise<{ email: CapturedEmail; link: string }> {
  const email = (await waitForEmails(to, count)).at(count - 1)!;
  const link = email.links[0];
  if (!link) throw new Error(`the email "${email.subject}" to ${to} holds no link`);
  return { email, link };
}

/** The mailbox refuses `to` (451) until acceptMailTo: as a mail server that is down would. */
export async function refuseMailTo(to: string): Promise<void> {
  await fetch(mailboxUrl("/refusal", to), { method: "PUT" });
}

/** The mailbox refuses `to` for good (550, no such user): a bounce. */
export async function refuseMailToForGood(to: string): Promise<void> {
  await fetch(`${mailboxUrl("/refusal", to)}&permanent=1`, { method: "PUT" });
}

export async function refusedAttempts(to: string): Promise<number> {
  return ((await (await fetch(mailboxUrl("/refusal", to))).json()) as { refusedAttempts: number }).refusedAttempts;
}

export async function acceptMailTo(to: string): Promise<void> {
  await fetch(mailboxUrl("/refusal", to), { method: "DELETE" });
}
