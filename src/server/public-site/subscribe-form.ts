import "server-only";
import { subscriberEmailSchema } from "~/shared/subscribers";

/**
 * The subscribe form's post (docs/public-blog.md, Subscribe form): an urlencoded body of at most
 * SUBSCRIBE_BODY_MAX_BYTES with exactly one valid `email`, or the problem to show the reader.
 */

/** A form with one address needs a few hundred bytes; more is refused unread. */
export const SUBSCRIBE_BODY_MAX_BYTES = 4096;

export const FORM_CONTENT_TYPE = "application/x-www-form-urlencoded";

export type SubscribeForm = { email: string } | { problem: string };

const TOO_LARGE = { problem: "The form sent more than an email address. Go back and send the form again." };

/**
 * A public form's body (this one, the unsubscribe link's one-click), read no further than
 * SUBSCRIBE_BODY_MAX_BYTES (Content-Length, when given, is checked first).
 */
export async function readFormBody(headers: { contentLength?: string }, body: AsyncIterable<Buffer>): Promise<Buffer | "too large"> {
  if (Number(headers.contentLength ?? 0) > SUBSCRIBE_BODY_MAX_BYTES) return "too large";
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of body) {
    length += chunk.length;
    if (length > SUBSCRIBE_BODY_MAX_BYTES) return "too large";
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** Reads `body` up to the cap. */
export async function readSubscribeForm(headers: { contentType?: string; contentLength?: string }, body: AsyncIterable<Buffer>): Promise<SubscribeForm> {
  if (headers.contentType?.split(";")[0]?.trim().toLowerCase() !== FORM_CONTENT_TYPE) return { problem: "The form was not sent as a web form. Go back and send it from the page." };
  const bytes = await readFormBody(headers, body);
  if (bytes === "too large") return TOO_LARGE;
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return { problem: "The form's text could not be read. Go back and send it again." };
  }
  const emails = new URLSearchParams(text).getAll("email");
  const parsed = emails.length === 1 ? subscriberEmailSchema.safeParse(emails[0]!.trim()) : null;
  if (!parsed?.success) return { problem: "Enter one valid email address, such as name@example.com." };
  return { email: parsed.data };
}
