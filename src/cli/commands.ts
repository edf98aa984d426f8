import { createWriteStream, openAsBlob } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { basename } from "node:path";
import { exportAccount } from "~/server/exports/export-account";
import { createImport, importView, type ImportRecord } from "~/server/imports/imports";
import { runImport } from "~/server/imports/run-import";
import { createAccount } from "~/server/accounts/create-account";
import { findAccountByEmail } from "~/server/accounts/find-account";
import { PLANS } from "~/shared/plans";
import { setPlan } from "~/server/accounts/set-plan";
import { importBlogs } from "~/server/blogs/import-blogs";
import { markDomainVerified } from "~/server/publication/domains";
import { canonicalDomain } from "~/shared/publication";
import type { Db } from "~/server/db";
import { createApiKey } from "~/server/keys/create-api-key";
import { deactivateApiKey } from "~/server/keys/deactivate-api-key";
import { rollApiKey } from "~/server/keys/roll-api-key";
import { createWebhookEndpoint, deleteWebhookEndpoint, listWebhookEndpoints, setWebhookEndpointEnabled } from "~/server/webhooks/endpoints";
import { EXPIRATION_OPTIONS } from "~/shared/key-expiration";
import { DEFAULT_GRACE, GRACE_OPTIONS } from "~/shared/key-grace";
import { WEBHOOK_EVENT_TYPES } from "~/shared/webhook-events";
import { DomainError } from "~/server/common/domain-error";
import { MAX_PAGE_SIZE, paginate } from "~/server/common/pagination";
import { parseSubscriberCsv, subscribersCsv } from "~/server/subscribers/csv";
import { addSubscriber, allSubscribers, importSubscribers, listSubscribers } from "~/server/subscribers/subscribers";
import { normalizeSubscriberEmail, SUBSCRIBER_STATUSES, subscriberEmailSchema, subscriberNameSchema } from "~/shared/subscribers";

type Flags<R extends string, O extends string> = Record<R, string> & Partial<Record<O, string>>;

export interface Command {
  usage: string;
  /** A one-word command's value given without a flag (`import <file>`): its name among the flags. */
  positional?: string;
  /** Every flag takes a value; those in `required` must be given. */
  required: readonly string[];
  optional: readonly string[];
  run(db: Db, flags: Record<string, string | undefined>): Promise<unknown>;
}

/** Keeps each command's `run` typed by the flags it declares. */
function command<R extends string, O extends string = never>(spec: {
  usage: string;
  positional?: R;
  required: readonly R[];
  optional?: readonly O[];
  run(db: Db, flags: Flags<R, O>): Promise<unknown>;
}): Command {
  return { optional: [], ...spec, run: (db, flags) => spec.run(db, flags as Flags<R, O>) };
}

/** The operator commands (README, Operator CLI), keyed by their two words (or one, with a positional value). */
export const COMMANDS: Record<string, Command> = {
  import: command({
    usage: "import <file> --email E [--old-url U]",
    positional: "file",
    required: ["file", "email"],
    optional: ["old-url"],
    async run(db, { file, email, "old-url": oldUrl }) {
      const account = await findAccountByEmail(db, email);
      const blob = await openAsBlob(file).catch((error: NodeJS.ErrnoException) => {
        throw new Error(`cannot read ${file}: ${error.code ?? error.message}`);
      });
      let row: ImportRecord;
      try {
        row = await createImport(db, account.id, { file: blob, fileName: basename(file), oldUrl }, { queue: false });
      } catch (error) {
        throw error instanceof DomainError ? new Error(`${file}: ${error.details ?? error.message}`) : error;
      }
      // Run here rather than by a worker; progress on stderr, the outcome on stdout.
      const done = await runImport(db, row.id, {
        lastAttempt: true,
        onProgress: (progress) => process.stderr.write(`${progress.processed}${progress.total === null ? "" : ` of ${progress.total}`} items\n`),
      });
      return importView(done);
    },
  }),
  "user create": command({
    usage: `user create --email E --password P [--name N] [--handle H] [--plan ${PLANS.join("|")}]`,
    required: ["email", "password"],
    optional: ["name", "handle", "plan"],
    run: (db, flags) => createAccount(db, flags),
  }),
  "plan set": command({
    usage: `plan set --email E --plan ${PLANS.join("|")}`,
    required: ["email", "plan"],
    run: (db, flags) => setPlan(db, flags),
  }),
  "key create": command({
    usage: `key create --email E --name N --permissions p1,p2 [--description D] [--expires ${EXPIRATION_OPTIONS.join("|")} | --expires-at ISO-8601]`,
    required: ["email", "name", "permissions"],
    optional: ["description", "expires", "expires-at"],
    async run(db, { email, permissions, "expires-at": expiresAt, ...rest }) {
      const account = await findAccountByEmail(db, email);
      return createApiKey(db, {
        ...rest,
        accountId: account.id,
        // Made by the person the email names, in their own publication (docs/teams.md, Keys).
        createdById: account.id,
        permissions: permissions.split(",").map((p) => p.trim()).filter(Boolean),
        expiresAt,
      });
    },
  }),
  "key deactivate": command({
    usage: "key deactivate --id ID",
    required: ["id"],
    async run(db, { id }) {
      await deactivateApiKey(db, { id });
      return { id, status: "deactivated" };
    },
  }),
  "key roll": command({
    usage: `key roll --id ID [--grace ${GRACE_OPTIONS.join("|")}] (default ${DEFAULT_GRACE})`,
    required: ["id"],
    optional: ["grace"],
    run: (db, flags) => rollApiKey(db, flags),
  }),
  "blogs import": command({
    usage: "blogs import --email E --file F.json",
    required: ["email", "file"],
    async run(db, { email, file }) {
      const blogs = await readJson(file);
      const account = await findAccountByEmail(db, email);
      return importBlogs(db, { accountId: account.id, blogs });
    },
  }),
  "domain verify": command({
    usage: "domain verify --email E --domain D",
    required: ["email", "domain"],
    async run(db, { email, domain }) {
      const account = await findAccountByEmail(db, email);
      return markDomainVerified(db, account.id, canonicalDomain(domain) ?? domain);
    },
  }),
  "webhook create": command({
    usage: `webhook create --email E --url U --events ${WEBHOOK_EVENT_TYPES.slice(0, 2).join(",")} [--description D]`,
    required: ["email", "url", "events"],
    optional: ["description"],
    async run(db, { email, url, events, description }) {
      const account = await findAccountByEmail(db, email);
      const { id, secret } = await createWebhookEndpoint(db, { accountId: account.id, url, eventTypes: events.split(","), description });
      return { id, secret };
    },
  }),
  "webhook list": command({
    usage: "webhook list --email E",
    required: ["email"],
    async run(db, { email }) {
      return listWebhookEndpoints(db, (await findAccountByEmail(db, email)).id);
    },
  }),
  "webhook disable": command({
    usage: "webhook disable --id ID",
    required: ["id"],
    run: (db, { id }) => setWebhookEndpointEnabled(db, { id, enabled: false }),
  }),
  "webhook delete": command({
    usage: "webhook delete --id ID",
    required: ["id"],
    run: (db, { id }) => deleteWebhookEndpoint(db, { id }),
  }),
  "subscribers list": command({
    usage: `subscribers list --email E [--status ${SUBSCRIBER_STATUSES.join("|")}] [--q TEXT] [--page N] [--limit 1-${MAX_PAGE_SIZE}]`,
    required: ["email"],
    optional: ["status", "q", "page", "limit"],
    async run(db, { email, status, q, page = "1", limit = "50" }) {
      const account = await findAccountByEmail(db, email);
      const known = SUBSCRIBER_STATUSES.find((s) => s === status);
      if (status !== undefined && !known) throw new Error(`--status must be one of: ${SUBSCRIBER_STATUSES.join(", ")}`);
      const query = { page: positiveInteger("page", page, Infinity), limit: positiveInteger("limit", limit, MAX_PAGE_SIZE), status: known, q: q?.trim() || undefined };
      const { subscribers, total } = await listSubscribers(db, account.id, query);
      return { subscribers, pagination: paginate(query.page, query.limit, total) };
    },
  }),
  "subscribers add": command({
    usage: "subscribers add --email E --address A [--name N]",
    required: ["email", "address"],
    optional: ["name"],
    async run(db, { email, address, name }) {
      if (!subscriberEmailSchema.safeParse(normalizeSubscriberEmail(address)).success) throw new Error(`--address is not a valid email address: ${address}`);
      if (name !== undefined && !subscriberNameSchema.safeParse(name).success) throw new Error("--name must be at most 200 characters");
      const account = await findAccountByEmail(db, email);
      return addSubscriber(db, account, { email: address, name, source: "import", unbounded: true });
    },
  }),
  "subscribers import": command({
    usage: "subscribers import --email E --file F.csv",
    required: ["email", "file"],
    async run(db, { email, file }) {
      const text = await readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => {
        throw new Error(`cannot read ${file}: ${error.code ?? error.message}`);
      });
      let parsed: ReturnType<typeof parseSubscriberCsv>;
      try {
        parsed = parseSubscriberCsv(text);
      } catch (error) {
        // The domain's refusal says what is wrong in its details.
        throw error instanceof DomainError ? new Error(`${file}: ${error.details ?? error.message}`) : error;
      }
      const account = await findAccountByEmail(db, email);
      const { layout, entries, invalid } = parsed;
      return { layout, ...(await importSubscribers(db, account, entries, invalid, { unbounded: true })) };
    },
  }),
  "subscribers export": command({
    usage: "subscribers export --email E --file F.csv",
    required: ["email", "file"],
    async run(db, { email, file }) {
      const account = await findAccountByEmail(db, email);
      const parts: string[] = [];
      let count = 0;
      for await (const batch of allSubscribers(db, account.id)) {
        parts.push(subscribersCsv(batch, parts.length === 0));
        count += batch.length;
      }
      await writeFile(file, parts.length > 0 ? parts.join("") : subscribersCsv([], true));
      return { file, subscribers: count };
    },
  }),
  export: command({
    usage: "export --email E --out F.zip",
    required: ["email", "out"],
    async run(db, { email, out }) {
      const account = await findAccountByEmail(db, email);
      return { file: out, ...(await exportAccount(db, account.id, createWriteStream(out))) };
    },
  }),
};

function positiveInteger(flag: string, value: string, max: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > max) throw new Error(`--${flag} must be an integer from 1${Number.isFinite(max) ? ` to ${max}` : ""}`);
  return n;
}

async function readJson(file: string): Promise<unknown> {
  const text = await readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => {
    throw new Error(`cannot read ${file}: ${error.code ?? error.message}`);
  });
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(`${file} is not valid JSON: ${(error as Error).message}`);
  }
}
