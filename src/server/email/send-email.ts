import "server-only";
// The send_email job (docs/security.md, Email): one queued email, sent over SMTP_URL from
// EMAIL_FROM. A failure throws, and graphile-worker retries the job later. Without SMTP_URL
// (development) the email is written to the server's log with its links instead.
import { createTransport, type Transporter } from "nodemailer";
import addressparser from "nodemailer/lib/addressparser";
import { env } from "~/env";
import { defineJob, JOB_NAMES } from "~/server/jobs/definition";
import { log } from "~/server/runtime/log";
import { emailSchema, renderEmail, type Email } from "./messages";

/** Used without EMAIL_FROM, off Vercel only (production-settings.ts requires it there). */
const DEVELOPMENT_SENDER = "Blog Manager <no-reply@localhost>";

/** The sender's address alone (the newsletters' sender name is their publication's). */
export const emailSenderAddress = () => addressparser(env.EMAIL_FROM ?? DEVELOPMENT_SENDER, { flatten: true })[0]?.address ?? "no-reply@localhost";

/** The longest an SMTP server may stay silent once a message is handed over. */
export const SMTP_SOCKET_TIMEOUT_MS = 30_000;

/** SMTP_URL's transport settings: seconds rather than nodemailer's minutes, as a job waiting on a dead server holds a worker slot. */
export const smtpTransportOptions = (smtpUrl: string) => ({ url: smtpUrl, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: SMTP_SOCKET_TIMEOUT_MS });

let transport: Transporter | undefined;

function mailTransport(smtpUrl: string): Transporter {
  transport ??= createTransport(smtpTransportOptions(smtpUrl));
  return transport;
}

export async function sendEmail(email: Email): Promise<void> {
  const { subject, text, html, links } = renderEmail(email);
  if (!env.SMTP_URL) {
    log.info({ email: { kind: email.kind, to: email.to, subject, links } }, "email (no SMTP_URL: written here instead of sent)");
    return;
  }
  await mailTransport(env.SMTP_URL).sendMail({ from: env.EMAIL_FROM ?? DEVELOPMENT_SENDER, to: email.to, subject, text, html });
  log.info({ email: { kind: email.kind } }, "email sent");
}

export const sendEmailJob = defineJob({ name: JOB_NAMES.sendEmail, payload: emailSchema, run: sendEmail });
