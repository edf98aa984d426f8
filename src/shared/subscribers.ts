import { z } from "zod";
import type { Plan } from "./plans";

/**
 * A publication's subscribers (docs/newsletters.md): the one definition of a subscriber as the API,
 * the dashboard and webhooks show it, and of the rules every way in (the public form, the API, a
 * CSV import) applies.
 */

/** A subscriber's email address. 254 characters is the longest address SMTP carries. */
export const subscriberEmailSchema = z.email().max(254);

/** How an address is kept: one subscriber per inbox spelling, whatever its case or surrounding spaces. */
export const normalizeSubscriberEmail = (email: string) => email.trim().toLowerCase();

export const SUBSCRIBER_NAME_MAX_LENGTH = 200;
export const subscriberNameSchema = z.string().trim().max(SUBSCRIBER_NAME_MAX_LENGTH);

export const SUBSCRIBER_STATUSES = ["pending", "active", "unsubscribed", "bounced"] as const;
export type SubscriberStatus = (typeof SUBSCRIBER_STATUSES)[number];

export const SUBSCRIBER_SOURCES = ["form", "import", "api"] as const;
export type SubscriberSource = (typeof SUBSCRIBER_SOURCES)[number];

export const subscriberSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  status: z.enum(SUBSCRIBER_STATUSES),
  source: z.enum(SUBSCRIBER_SOURCES),
  createdAt: z.iso.datetime(),
  confirmedAt: z.iso.datetime().nullable(),
  unsubscribedAt: z.iso.datetime().nullable(),
});
export type SubscriberView = z.infer<typeof subscriberSchema>;

/** Subscribers an account may have, every status counted (QUOTA_EXCEEDED beyond). */
export const PLAN_SUBSCRIBER_LIMITS: Record<Plan, number> = { free: 1_000, pro: 100_000, enterprise: 1_000_000 };

/** A confirmation link works this long after its email; one is sent an address at most every CONFIRMATION_INTERVAL_MS. */
export const CONFIRMATION_LINK_TTL_MS = 7 * 24 * 60 * 60 * 1000;
export const CONFIRMATION_INTERVAL_MS = 10 * 60 * 1000;

/**
 * Confirmation emails one publication's form may have sent in an hour, whatever the addresses: an
 * owner, or anyone posting the form, cannot make it a way to mail strangers in bulk.
 */
export const CONFIRMATIONS_PER_PUBLICATION_HOUR = 100;
