import "server-only";
import type { Db } from "~/server/db";
import { queueEmail } from "~/server/email/queue-email";
import { withinRecipientCap } from "~/server/email/recipient-cap";
import { underAccountLock } from "~/server/quotas/account-lock";
import { log } from "~/server/runtime/log";
import {
  CONFIRMATION_INTERVAL_MS,
  CONFIRMATION_LINK_TTL_MS,
  CONFIRMATIONS_PER_PUBLICATION_HOUR,
  normalizeSubscriberEmail,
  type SubscriberStatus,
} from "~/shared/subscribers";
import { confirmationUrl } from "./links";
import { subscriberRoom } from "./subscribers";
import { newSubscriberToken, subscriberTokenHash } from "./tokens";

/**
 * A reader's own subscription (docs/newsletters.md, Subscribing): the subscribe form's double
 * opt-in, the confirmation link, and the unsubscribe (and manage) link. What each outcome is the
 * public site decides; nothing here knows of HTTP.
 */

/** What a subscribe form's post did; the reader is told the same whatever it is (no enumeration). */
export type SubscribeOutcome = "confirmation sent" | "already active" | "bounced" | "too soon" | "capped" | "publication capped" | "over quota";

/** Where the publication's links start and how it is named, for the confirmation email. */
export interface PublicationLinks {
  accountId: string;
  /** The publication's home (src/server/public-site/home.ts), absolute, no trailing slash. */
  home: string;
  title: string;
}

/** Tokens are 32 characters (./tokens.ts); anything much longer is none, and is not looked up. */
const MAX_TOKEN_LENGTH = 128;

/** The statuses a confirmation makes active: a bounced address stays bounced, an active one needs none. */
const CONFIRMABLE: SubscriberStatus[] = ["pending", "unsubscribed"];

/**
 * The subscribe form's post for `address`: the account's subscriber for it, made `pending` (source
 * `form`) when new, under the plan's quota; then a confirmation email, unless the address is
 * active or bounced, had one less than CONFIRMATION_INTERVAL_MS ago, or has received as many
 * emails as it may (src/server/email/recipient-cap.ts), or the publication has sent about
 * CONFIRMATIONS_PER_PUBLICATION_HOUR in the last hour. Only the link's hash is kept.
 */
export async function requestSubscription(db: Db, publication: PublicationLinks, address: string): Promise<SubscribeOutcome> {
  const email = normalizeSubscriberEmail(address);
  const subscriber = (await findByAddress(db, publication.accountId, email)) ?? (await createPending(db, publication.accountId, email));
  if (subscriber === "over quota") {
    log.warn({ accountId: publication.accountId }, "subscriber not kept: the account has its plan's number of subscribers");
    return "over quota";
  }
  if (subscriber.status === "active") return "already active";
  if (subscriber.status === "bounced") return "bounced";
  const resendAfter = new Date(Date.now() - CONFIRMATION_INTERVAL_MS);
  if (subscriber.confirmationSentAt && subscriber.confirmationSentAt > resendAfter) return "too soon";
  if (!(await withinPublicationCap(db, publication.accountId))) {
    log.warn({ accountId: publication.accountId }, "confirmation not sent: the publication has sent as many as it may this hour (docs/security.md, The subscribe form)");
    return "publication capped";
  }
  if (!(await withinRecipientCap(email))) {
    log.warn({ email: { kind: "confirm-subscription" } }, "email not sent: its address has received as many as it may for now (docs/security.md, Emails per address)");
    return "capped";
  }
  const token = newSubscriberToken();
  // The interval checked again in the write: of two racing posts, one sends.
  const { count } = await db.subscriber.updateMany({
    where: { id: subscriber.id, status: { in: CONFIRMABLE }, OR: [{ confirmationSentAt: null }, { confirmationSentAt: { lte: resendAfter } }] },
    data: { confirmTokenHash: subscriberTokenHash(token), confirmationSentAt: new Date() },
  });
  if (count === 0) return "too soon";
  await queueEmail({ kind: "confirm-subscription", to: email, publication: publication.title, url: confirmationUrl(publication.home, token) });
  return "confirmation sent";
}

/** Whether the publication has sent fewer than CONFIRMATIONS_PER_PUBLICATION_HOUR confirmations in the last hour. */
async function withinPublicationCap(db: Db, accountId: string): Promise<boolean> {
  const sent = await db.subscriber.count({ where: { userId: accountId, confirmationSentAt: { gt: new Date(Date.now() - 60 * 60 * 1000) } } });
  return sent < CONFIRMATIONS_PER_PUBLICATION_HOUR;
}

const SUBSCRIBER_STATE = { id: true, status: true, confirmationSentAt: true } as const;

function findByAddress(db: Db, accountId: string, email: string) {
  return db.subscriber.findUnique({ where: { userId_email: { userId: accountId, email } }, select: SUBSCRIBER_STATE });
}

/**
 * A new pending subscriber, or none past the plan's quota (every status counted), under the
 * account's lock so racing posts cannot pass the same last place (docs/security.md, Quotas); an
 * address a racing post has just added is that one.
 */
function createPending(db: Db, accountId: string, email: string) {
  return underAccountLock(db, accountId, async (tx) => {
    const { plan } = await tx.organization.findUniqueOrThrow({ where: { id: accountId }, select: { plan: true } });
    if ((await subscriberRoom(tx, { id: accountId, plan })).room === 0) return "over quota" as const;
    await tx.subscriber.createMany({ data: [{ userId: accountId, email, source: "form", status: "pending", unsubscribeToken: newSubscriberToken() }], skipDuplicates: true });
    return tx.subscriber.findUniqueOrThrow({ where: { userId_email: { userId: accountId, email } }, select: SUBSCRIBER_STATE });
  });
}

/** A link followed in time gives the subscriber's unsubscribe token: the page it lands on leads to their manage page. */
export type ConfirmOutcome = { unsubscribeToken: string } | "expired" | "unknown";

/**
 * A confirmation link of `accountId`'s publication followed: its subscriber active (confirmedAt
 * now, a former unsubscribedAt cleared) and the link spent, when it is the latest one sent and
 * younger than CONFIRMATION_LINK_TTL_MS. `write` false (a HEAD) only tells what following it would do.
 */
export async function confirmSubscription(db: Db, accountId: string, token: string, { write = true } = {}): Promise<ConfirmOutcome> {
  if (!token || token.length > MAX_TOKEN_LENGTH) return "unknown";
  const confirmTokenHash = subscriberTokenHash(token);
  const subscriber = await db.subscriber.findUnique({ where: { confirmTokenHash }, select: { id: true, userId: true, status: true, confirmationSentAt: true, unsubscribeToken: true } });
  if (!subscriber || subscriber.userId !== accountId || !CONFIRMABLE.includes(subscriber.status)) return "unknown";
  if (!subscriber.confirmationSentAt || Date.now() - subscriber.confirmationSentAt.getTime() > CONFIRMATION_LINK_TTL_MS) return "expired";
  const confirmed = { unsubscribeToken: subscriber.unsubscribeToken };
  if (!write) return confirmed;
  const { count } = await db.subscriber.updateMany({
    where: { id: subscriber.id, confirmTokenHash, status: { in: CONFIRMABLE } },
    data: { status: "active", confirmedAt: new Date(), unsubscribedAt: null, confirmTokenHash: null },
  });
  return count === 1 ? confirmed : "unknown";
}

/** A subscriber as its unsubscribe page shows it. */
export interface ManagedSubscriber {
  email: string;
  status: SubscriberStatus;
}

/** The subscriber whose unsubscribe link of `accountId`'s publication holds `token`; null for none. Changes nothing (a GET, a mail scanner's too). */
export function findManagedSubscriber(db: Db, accountId: string, token: string): Promise<ManagedSubscriber | null> {
  if (!token || token.length > MAX_TOKEN_LENGTH) return Promise.resolve(null);
  return db.subscriber.findFirst({ where: { unsubscribeToken: token, userId: accountId }, select: { email: true, status: true } });
}

/**
 * The unsubscribe link posted (a reader's button, or a mail provider's RFC 8058 one-click): a
 * pending or active subscriber unsubscribed at once, and any confirmation link it has spent; a
 * bounced one stays bounced, an unsubscribed one as it was. Null for an unknown token.
 */
export async function unsubscribe(db: Db, accountId: string, token: string): Promise<ManagedSubscriber | null> {
  const subscriber = await findManagedSubscriber(db, accountId, token);
  if (!subscriber) return null;
  await db.subscriber.updateMany({
    where: { unsubscribeToken: token, userId: accountId, status: { in: ["pending", "active"] } },
    data: { status: "unsubscribed", unsubscribedAt: new Date(), confirmTokenHash: null },
  });
  return findManagedSubscriber(db, accountId, token);
}

/** An address shown on a page anyone holding its link may open: its first character and its domain ("a…@example.com"). */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf("@");
  return `${email.slice(0, Math.min(1, at))}…${email.slice(at)}`;
}
