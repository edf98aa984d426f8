import "server-only";
import { Prisma } from "~/generated/prisma/client";
import type { Db } from "~/server/db";
import { DomainError } from "~/server/common/domain-error";
import { pageOffset } from "~/server/common/pagination";
import { containsPattern } from "~/server/blogs/list-blogs-sql";
import { underAccountLock } from "~/server/quotas/account-lock";
import type { Plan } from "~/shared/plans";
import {
  normalizeSubscriberEmail,
  PLAN_SUBSCRIBER_LIMITS,
  SUBSCRIBER_STATUSES,
  type SubscriberSource,
  type SubscriberStatus,
  type SubscriberView,
} from "~/shared/subscribers";
import { newSubscriberToken } from "./tokens";

/**
 * An account's subscribers as the owner and their keys manage them (docs/newsletters.md,
 * Subscribers): list, add, erase, count. Every way in that adds rows for the owner (the API, the
 * dashboard's import) goes through the plan's quota here, under the account's lock.
 */

export interface SubscriberAccount {
  id: string;
  plan: Plan;
}

const VIEW_COLUMNS = { id: true, email: true, name: true, status: true, source: true, createdAt: true, confirmedAt: true, unsubscribedAt: true } as const;

type SubscriberRow = Prisma.SubscriberGetPayload<{ select: typeof VIEW_COLUMNS }>;

export function subscriberView(row: SubscriberRow): SubscriberView {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    status: row.status,
    source: row.source,
    createdAt: row.createdAt.toISOString(),
    confirmedAt: row.confirmedAt?.toISOString() ?? null,
    unsubscribedAt: row.unsubscribedAt?.toISOString() ?? null,
  };
}

export interface SubscriberListQuery {
  page: number;
  limit: number;
  status?: SubscriberStatus;
  /** Kept when the address or the name contains it, ignoring case (already trimmed; empty is none). */
  q?: string;
}

/** One page of the account's subscribers, newest first (ties by id), and the exact total matching. */
export async function listSubscribers(db: Db, accountId: string, query: SubscriberListQuery): Promise<{ subscribers: SubscriberView[]; total: number }> {
  const conditions = [Prisma.sql`"userId" = ${accountId}`];
  if (query.status) conditions.push(Prisma.sql`"status" = ${query.status}::"SubscriberStatus"`);
  if (query.q) {
    const pattern = containsPattern(query.q);
    conditions.push(Prisma.sql`("email" ILIKE ${pattern} OR "name" ILIKE ${pattern})`);
  }
  const where = Prisma.join(conditions, " AND ");
  const [rows, [count]] = await Promise.all([
    db.$queryRaw<SubscriberRow[]>`
      SELECT "id", "email", "name", "status"::text AS "status", "source"::text AS "source", "createdAt", "confirmedAt", "unsubscribedAt"
      FROM "subscriber" WHERE ${where}
      ORDER BY "createdAt" DESC, "id" DESC LIMIT ${query.limit} OFFSET ${pageOffset(query.page, query.limit)}`,
    db.$queryRaw<{ total: number }[]>`SELECT count(*)::int AS "total" FROM "subscriber" WHERE ${where}`,
  ]);
  return { subscribers: rows.map(subscriberView), total: count?.total ?? 0 };
}

export type SubscriberCounts = Record<SubscriberStatus, number> & { total: number };

/** How many subscribers the account has in each status, and in all. */
export async function countSubscribers(db: Pick<Db, "subscriber">, accountId: string): Promise<SubscriberCounts> {
  const groups = await db.subscriber.groupBy({ by: ["status"], where: { userId: accountId }, _count: { _all: true } });
  const counts = Object.fromEntries(SUBSCRIBER_STATUSES.map((status) => [status, 0])) as Record<SubscriberStatus, number>;
  for (const group of groups) counts[group.status] = group._count._all;
  return { ...counts, total: Object.values(counts).reduce((sum, n) => sum + n, 0) };
}

/**
 * Places left in the account's subscriber quota (every status counted, docs/newsletters.md). Read
 * under the account's lock (underAccountLock) by whoever adds, so two additions never take the
 * same last place.
 */
export async function subscriberRoom(tx: Pick<Db, "subscriber">, account: SubscriberAccount): Promise<{ room: number; count: number }> {
  const count = await tx.subscriber.count({ where: { userId: account.id } });
  return { room: Math.max(0, PLAN_SUBSCRIBER_LIMITS[account.plan] - count), count };
}

export function subscriberQuotaExceeded(account: SubscriberAccount, count: number, adding = 1): DomainError {
  const limit = PLAN_SUBSCRIBER_LIMITS[account.plan];
  return new DomainError(
    "QUOTA_EXCEEDED",
    "Subscriber quota reached",
    `The ${account.plan} plan allows ${limit.toLocaleString("en-US")} subscribers, every status counted, and this account has ` +
      `${count.toLocaleString("en-US")}${adding > 1 ? ` (adding ${adding.toLocaleString("en-US")})` : ""}: delete subscribers or move to a larger plan to add more`,
  );
}

/** The subscriber rows an owner's addition makes: active at once, since the owner attests consent. */
function newSubscriberRow(
  accountId: string,
  entry: { email: string; name?: string; status?: "active" | "unsubscribed" },
  source: SubscriberSource,
  now: Date,
  importId: string | null = null,
) {
  const status = entry.status ?? "active";
  return {
    userId: accountId,
    email: entry.email,
    name: entry.name ?? "",
    status,
    source,
    createdAt: now,
    confirmedAt: now,
    unsubscribedAt: status === "unsubscribed" ? now : null,
    unsubscribeToken: newSubscriberToken(),
    importId,
  };
}

/**
 * Adds one address as an active subscriber; an address the account already has is answered as it
 * is (`created: false`), whatever its status: an unsubscribed or bounced one is never reactivated
 * this way. Within the plan's quota (every status counted) unless `unbounded` (the operator CLI).
 */
export async function addSubscriber(
  db: Db,
  account: SubscriberAccount,
  input: { email: string; name?: string; source: SubscriberSource; unbounded?: boolean },
): Promise<{ subscriber: SubscriberView; created: boolean }> {
  const email = normalizeSubscriberEmail(input.email);
  const find = (tx: Pick<Db, "subscriber">) => tx.subscriber.findUnique({ where: { userId_email: { userId: account.id, email } }, select: VIEW_COLUMNS });
  const existing = await find(db);
  if (existing) return { subscriber: subscriberView(existing), created: false };
  return underAccountLock(db, account.id, async (tx) => {
    // Another request may have added it while this one waited for the lock.
    const added = await find(tx);
    if (added) return { subscriber: subscriberView(added), created: false };
    if (!input.unbounded) {
      const { room, count } = await subscriberRoom(tx, account);
      if (room === 0) throw subscriberQuotaExceeded(account, count);
    }
    const row = await tx.subscriber.create({ data: newSubscriberRow(account.id, { email, name: input.name?.trim() }, input.source, new Date()), select: VIEW_COLUMNS });
    return { subscriber: subscriberView(row), created: true };
  });
}

/** Erases a subscriber of the account (its deliveries go with it); another account's id is not found, as an unknown one is. */
export async function deleteSubscriber(db: Db, accountId: string, subscriberId: string): Promise<void> {
  const { count } = await db.subscriber.deleteMany({ where: { id: subscriberId, userId: accountId } });
  if (count === 0) throw new DomainError("RESOURCE_NOT_FOUND", "Subscriber not found", `No subscriber with id ${subscriberId}`);
}

export interface ImportEntry {
  /** The file's line the row ends on (1 is the first line, the header's when there is one). */
  line: number;
  email: string;
  name: string;
  /** The source marked it unsubscribed (or its address undeliverable): kept as `unsubscribed`, never emailed. */
  unsubscribed: boolean;
}

export type ImportSkipReason = "invalid address" | "duplicate in file" | "over quota";

export interface ImportReport {
  /** New subscribers made `active`. */
  added: number;
  /** New subscribers kept as `unsubscribed`, as the source had them. */
  addedUnsubscribed: number;
  /** Addresses the account already had, left as they were. */
  alreadyThere: number;
  skipped: { line: number; email: string; reason: ImportSkipReason }[];
}

/** Rows written per statement: well under PostgreSQL's 65,535 bound parameters. */
const IMPORT_BATCH = 2_000;

/**
 * Adds the file's new addresses (valid, first occurrence), within the plan's quota: the first
 * ones in file order until it is full, the rest reported `over quota`. Addresses the account
 * already has are left as they are. One transaction under the account's lock: all or nothing.
 */
export async function importSubscribers(
  db: Db,
  account: SubscriberAccount,
  entries: ImportEntry[],
  invalid: { line: number; email: string }[],
  options: { unbounded?: boolean; importId?: string } = {},
): Promise<ImportReport> {
  const skipped: ImportReport["skipped"] = invalid.map((row) => ({ ...row, reason: "invalid address" as const }));
  const seen = new Set<string>();
  const unique: ImportEntry[] = [];
  for (const entry of entries) {
    if (seen.has(entry.email)) skipped.push({ line: entry.line, email: entry.email, reason: "duplicate in file" });
    else {
      seen.add(entry.email);
      unique.push(entry);
    }
  }
  const report = await underAccountLock(db, account.id, async (tx) => {
    const existing = new Set<string>();
    for (let i = 0; i < unique.length; i += IMPORT_BATCH) {
      const emails = unique.slice(i, i + IMPORT_BATCH).map((entry) => entry.email);
      const rows = await tx.subscriber.findMany({ where: { userId: account.id, email: { in: emails } }, select: { email: true } });
      for (const row of rows) existing.add(row.email);
    }
    const fresh = unique.filter((entry) => !existing.has(entry.email));
    const room = options.unbounded ? fresh.length : (await subscriberRoom(tx, account)).room;
    const kept = fresh.slice(0, room);
    const now = new Date();
    for (let i = 0; i < kept.length; i += IMPORT_BATCH) {
      await tx.subscriber.createMany({
        data: kept.slice(i, i + IMPORT_BATCH).map((entry) => newSubscriberRow(account.id, { ...entry, status: entry.unsubscribed ? "unsubscribed" : "active" }, "import", now, options.importId)),
      });
    }
    for (const entry of fresh.slice(room)) skipped.push({ line: entry.line, email: entry.email, reason: "over quota" });
    const unsubscribed = kept.filter((entry) => entry.unsubscribed).length;
    return { added: kept.length - unsubscribed, addedUnsubscribed: unsubscribed, alreadyThere: existing.size, skipped };
  });
  report.skipped.sort((a, b) => a.line - b.line);
  return report;
}

/** Every subscriber of the account, newest first, a page of `batch` at a time (keyset: constant cost per page). */
export async function* allSubscribers(db: Db, accountId: string, batch = 5_000): AsyncGenerator<SubscriberView[]> {
  let after: { createdAt: Date; id: string } | undefined;
  for (;;) {
    const rows = await db.subscriber.findMany({
      where: {
        userId: accountId,
        ...(after && { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] }),
      },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: batch,
      select: VIEW_COLUMNS,
    });
    if (rows.length > 0) yield rows.map(subscriberView);
    const last = rows.at(-1);
    if (!last || rows.length < batch) return;
    after = { createdAt: last.createdAt, id: last.id };
  }
}
