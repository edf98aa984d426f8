import "server-only";
import { CsvError, parse } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";
import { DomainError } from "~/server/common/domain-error";
import { normalizeSubscriberEmail, SUBSCRIBER_NAME_MAX_LENGTH, subscriberEmailSchema, type SubscriberView } from "~/shared/subscribers";
import type { ImportEntry } from "./subscribers";

/**
 * Subscriber lists as CSV (docs/newsletters.md, Importing and exporting): the exports of Substack,
 * Ghost and Mailchimp, or a plain `email[,name]` file, read into entries; and the account's list
 * written out.
 */

/** The largest file an import reads, and the most rows. */
export const MAX_IMPORT_BYTES = 5 * 1024 * 1024;
export const MAX_IMPORT_ROWS = 50_000;

export type CsvLayout = "substack" | "ghost" | "mailchimp" | "plain";

export interface ParsedSubscriberCsv {
  layout: CsvLayout;
  entries: ImportEntry[];
  invalid: { line: number; email: string }[];
}

/** What a layout's columns say about one row. */
interface Layout {
  layout: CsvLayout;
  email: number;
  name: (row: string[]) => string;
  unsubscribed: (row: string[]) => boolean;
}

const isTrue = (value: string | undefined) => /^(true|yes|1)$/i.test(value?.trim() ?? "");
const isFalse = (value: string | undefined) => /^(false|no|0)$/i.test(value?.trim() ?? "");
const filled = (value: string | undefined) => (value?.trim() ?? "") !== "";

/** Recognises a layout by its header row (names compared ignoring case and spaces around), or null. */
export function recognizeLayout(header: string[]): Layout | null {
  const names = header.map((name) => name.trim().toLowerCase());
  const column = (name: string) => names.indexOf(name);
  const cell = (index: number) => (row: string[]) => (index >= 0 ? (row[index] ?? "") : "");
  const name = cell(column("name"));
  // Mailchimp: one file per audience status; the unsubscribed and cleaned (bounced) ones carry
  // UNSUB_TIME or CLEAN_TIME.
  if (column("email address") >= 0) {
    const first = cell(column("first name"));
    const last = cell(column("last name"));
    const unsub = cell(column("unsub_time"));
    const clean = cell(column("clean_time"));
    return {
      layout: "mailchimp",
      email: column("email address"),
      name: (row) => `${first(row).trim()} ${last(row).trim()}`.trim(),
      unsubscribed: (row) => filled(unsub(row)) || filled(clean(row)),
    };
  }
  if (column("email") < 0) return null;
  // Ghost's members export: subscribed_to_emails false is a member who stopped the newsletter.
  if (column("subscribed_to_emails") >= 0) {
    const subscribed = cell(column("subscribed_to_emails"));
    return { layout: "ghost", email: column("email"), name, unsubscribed: (row) => isFalse(subscribed(row)) };
  }
  // Substack's subscriber export: email_disabled true is a reader who turned its emails off
  // (active_subscription is about paying, not about receiving emails).
  if (column("active_subscription") >= 0 || column("email_disabled") >= 0) {
    const disabled = cell(column("email_disabled"));
    return { layout: "substack", email: column("email"), name, unsubscribed: (row) => isTrue(disabled(row)) };
  }
  // This app's own export (EXPORT_COLUMNS): only an active address comes back able to receive
  // emails; an unsubscribed, bounced or never confirmed (pending) one comes back unsubscribed.
  if (column("status") >= 0) {
    const status = cell(column("status"));
    return { layout: "plain", email: column("email"), name, unsubscribed: (row) => status(row).trim().toLowerCase() !== "active" };
  }
  return { layout: "plain", email: column("email"), name, unsubscribed: () => false };
}

/** A file without a header: the address first, the name second. */
const HEADERLESS: Layout = { layout: "plain", email: 0, name: (row) => row[1] ?? "", unsubscribed: () => false };

const invalidFile = (details: string) => new DomainError("INVALID_PARAMETER", "Invalid parameter: file", details, "file");

/** Reads an import file, or refuses it whole (INVALID_PARAMETER naming `file`) when it is not a subscriber list. */
export function parseSubscriberCsv(text: string): ParsedSubscriberCsv {
  if (Buffer.byteLength(text) > MAX_IMPORT_BYTES) throw invalidFile(`The file is larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MB: split it`);
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(text, { bom: true, info: true, relax_column_count: true, skip_empty_lines: true, to_line: MAX_IMPORT_ROWS + 2 }) as unknown as typeof records;
  } catch (error) {
    if (error instanceof CsvError) throw invalidFile(`The file is not valid CSV: ${error.message}`);
    throw error;
  }
  const [first, ...rest] = records;
  if (!first) throw invalidFile("The file is empty");
  const recognized = recognizeLayout(first.record);
  const headerless = !recognized && subscriberEmailSchema.safeParse(normalizeSubscriberEmail(first.record[0] ?? "")).success;
  if (!recognized && !headerless) {
    throw invalidFile("No email column: the first line must name the columns (email, or Email Address) or the first row be an address");
  }
  const layout = recognized ?? HEADERLESS;
  const rows = recognized ? rest : records;
  if (rows.length > MAX_IMPORT_ROWS) throw invalidFile(`The file has more than ${MAX_IMPORT_ROWS.toLocaleString("en-US")} rows: split it`);
  const parsed: ParsedSubscriberCsv = { layout: layout.layout, entries: [], invalid: [] };
  for (const { record, info } of rows) {
    const email = normalizeSubscriberEmail(record[layout.email] ?? "");
    if (!subscriberEmailSchema.safeParse(email).success) {
      parsed.invalid.push({ line: info.lines, email: email.slice(0, 254) });
      continue;
    }
    parsed.entries.push({
      line: info.lines,
      email,
      name: layout.name(record).trim().slice(0, SUBSCRIBER_NAME_MAX_LENGTH),
      unsubscribed: layout.unsubscribed(record),
    });
  }
  return parsed;
}

export const EXPORT_COLUMNS = ["email", "name", "status", "source", "created_at", "confirmed_at", "unsubscribed_at"] as const;

/** Subscribers as the export's CSV rows; the header first when `header`. */
export function subscribersCsv(subscribers: SubscriberView[], header: boolean): string {
  return stringify(
    subscribers.map((s) => [s.email, s.name, s.status, s.source, s.createdAt, s.confirmedAt ?? "", s.unsubscribedAt ?? ""]),
    // A name opening with = + - @ would run as a formula in a spreadsheet: escaped with a quote.
    { header, columns: [...EXPORT_COLUMNS], escape_formulas: true },
  );
}
