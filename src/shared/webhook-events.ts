/** The events an endpoint can subscribe to (docs/webhooks.md). */
export const WEBHOOK_EVENT_TYPES = [
  "blog.created",
  "blog.updated",
  "blog.deleted",
  "blog.published",
  "blog.unpublished",
  "blog.scheduled",
  "api_key.deactivated",
  "api_key.expiring",
  "subscriber.created",
  "subscriber.unsubscribed",
  "newsletter.sent",
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Sent by "Send test event" only, to the one endpoint asked; not subscribable. */
export const WEBHOOK_TEST_EVENT = "webhook.test";
