import "server-only";
import { createTransport, type Transporter } from "nodemailer";
import { env } from "~/env";
import { emailSenderAddress, smtpTransportOptions } from "~/server/email/send-email";
import { log } from "~/server/runtime/log";
import type { RenderedNewsletter } from "./email";

/**
 * How a newsletter email leaves (docs/newsletters.md, Sending): over SMTP_URL with the app's
 * transport settings, on pooled connections (a batch hands SMTP several messages at once), from
 * EMAIL_FROM's address under the publication's name. Without SMTP_URL (development) it is written
 * to the log instead, as every email of the app is.
 */

/** Messages handed to SMTP at once by one process: its pooled connections. */
export const SMTP_CONNECTIONS = 5;

let pooled: Transporter | undefined;

function transport(smtpUrl: string): Transporter {
  pooled ??= createTransport({ ...smtpTransportOptions(smtpUrl), pool: true, maxConnections: SMTP_CONNECTIONS });
  return pooled;
}

export interface NewsletterMessage extends RenderedNewsletter {
  to: string;
  /** The publication's name, the sender's display name. */
  senderName: string;
  /** The recipient's one-click unsubscribe address (RFC 8058 headers); none for the owner's test email. */
  unsubscribeUrl?: string;
}

/** Hands `message` to SMTP; settles once SMTP accepted it, throws nodemailer's error (with `responseCode` when SMTP answered) when not. */
export async function sendNewsletterMessage(message: NewsletterMessage): Promise<void> {
  const { to, subject, html, text, senderName, unsubscribeUrl } = message;
  if (!env.SMTP_URL) {
    log.info({ newsletter: { to, subject, unsubscribeUrl } }, "newsletter email (no SMTP_URL: written here instead of sent)");
    return;
  }
  await transport(env.SMTP_URL).sendMail({
    from: { name: senderName, address: emailSenderAddress() },
    to,
    subject,
    html,
    text,
    headers: unsubscribeUrl ? { "List-Unsubscribe": `<${unsubscribeUrl}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" } : {},
  });
}
