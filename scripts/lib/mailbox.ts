/**
 * A mailbox for the test suite (scripts/test.ts): an SMTP server that keeps every message the
 * app's job worker sends, and a small HTTP API on which the tests read them by recipient
 * (tests/support/mailbox.ts). A recipient can be refused for a while (451, "try again later"),
 * as an unreachable mail server would be: the app's send job must then be retried; or for good
 * (550, "no such user"), as a bounce: the newsletter's subscriber is then bounced.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export interface CapturedEmail {
  to: string;
  from: string;
  subject: string;
  /** The From header as written, e.g. `"Ada's Notes" <no-reply@example.test>`. */
  fromHeader: string;
  /** Every header by its lowercase name (the last, when repeated), as written but unfolded. */
  headers: Record<string, string>;
  text: string;
  html: string;
  /** The links of the plain-text part, in order. */
  links: string[];
}

export interface RunningMailbox {
  /** For the app: SMTP_URL. */
  smtpUrl: string;
  /** For the tests: MAILBOX_URL. */
  apiUrl: string;
  stop(): Promise<void>;
}

export interface MailboxOptions {
  /** Each message is accepted this long after its data arrived (a remote server's pace). */
  acceptDelayMs?: number;
}

export async function startMailbox({ acceptDelayMs = 0 }: MailboxOptions = {}): Promise<RunningMailbox> {
  const received = new Map<string, CapturedEmail[]>();
  const refused = new Map<string, number>();
  const refusedForGood = new Set<string>();

  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onRcptTo(address, _session, callback) {
      const to = address.address.toLowerCase();
      if (refusedForGood.has(to)) return callback(Object.assign(new Error("No such user here"), { responseCode: 550 }));
      const attempts = refused.get(to);
      if (attempts === undefined) return callback();
      refused.set(to, attempts + 1);
      callback(Object.assign(new Error("Mailbox temporarily unavailable"), { responseCode: 451 }));
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then(async (mail) => {
          if (acceptDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, acceptDelayMs));
          const headers = Object.fromEntries(mail.headerLines.map(({ key, line }) => [key, line.slice(line.indexOf(":") + 1).replace(/\r?\n[ \t]+/g, " ").trim()]));
          const text = mail.text ?? "";
          for (const recipient of session.envelope.rcptTo) {
            const to = recipient.address.toLowerCase();
            const message = { to, from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "", subject: mail.subject ?? "", fromHeader: headers.from ?? "", headers, text, html: typeof mail.html === "string" ? mail.html : "", links: text.match(/https?:\/\/\S+/g) ?? [] };
            received.set(to, [...(received.get(to) ?? []), message]);
          }
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  const smtpPort = (smtp.server.address() as AddressInfo).port;

  const api = createServer((request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? "/", "http://mailbox");
    const to = (url.searchParams.get("to") ?? "").toLowerCase();
    const reply = (status: number, body: unknown) => response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    if (!to) return reply(400, { error: "to is required" });
    if (url.pathname === "/messages" && request.method === "GET") return reply(200, { messages: received.get(to) ?? [] });
    if (url.pathname === "/refusal" && request.method === "PUT" && url.searchParams.get("permanent") === "1") {
      refusedForGood.add(to);
      return reply(200, { refusing: true });
    }
    if (url.pathname === "/refusal" && request.method === "PUT") {
      refused.set(to, refused.get(to) ?? 0);
      return reply(200, { refusing: true });
    }
    if (url.pathname === "/refusal" && request.method === "DELETE") {
      const attempts = refused.get(to) ?? 0;
      refused.delete(to);
      return reply(200, { refusedAttempts: attempts });
    }
    if (url.pathname === "/refusal" && request.method === "GET") return reply(200, { refusedAttempts: refused.get(to) ?? 0 });
    reply(404, { error: "not found" });
  });
  await new Promise<void>((resolve) => api.listen(0, "127.0.0.1", resolve));
  const apiPort = (api.address() as AddressInfo).port;

  return {
    smtpUrl: `smtp://127.0.0.1:${smtpPort}`,
    apiUrl: `http://127.0.0.1:${apiPort}`,
    stop: async () => {
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
      await new Promise<void>((resolve) => api.close(() => resolve()));
    },
  };
}
