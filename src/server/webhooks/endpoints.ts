import "server-only";
// Webhook endpoints of an account (docs/webhooks.md), for the operator CLI and the dashboard. With
// `accountId`, an endpoint of another account counts as not found.
import { randomUUID } from "node:crypto";
import type { Db } from "~/server/db";
import { DomainError } from "~/server/common/domain-error";
import { WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT, type WebhookEventType } from "~/shared/webhook-events";
import { NEW_DELIVERY_ID_SQL, queueDeliveryJobsSql } from "./delivery-jobs";
import { generateWebhookSecret } from "./send-webhook";
import { webhookSettings } from "./settings";
import { checkWebhookUrl } from "./url-safety";

export const MAX_ENDPOINTS_PER_ACCOUNT = 20;
const MAX_DESCRIPTION_LENGTH = 500;
/** Deliveries the dashboard shows per endpoint. */
const RECENT_DELIVERIES = 50;

const ENDPOINT_VIEW = {
  id: true,
  url: true,
  description: true,
  eventTypes: true,
  enabled: true,
  disabledReason: true,
  failingSince: true,
  createdAt: true,
} as const;

/** An endpoint as its owner sees it (never its secret), timestamps as ISO 8601. */
function toEndpointView<R extends { failingSince: Date | null; createdAt: Date }>(endpoint: R) {
  return { ...endpoint, failingSince: endpoint.failingSince?.toISOString() ?? null, createdAt: endpoint.createdAt.toISOString() };
}

interface EndpointRef {
  id: string;
  accountId?: string;
}

function parseEventTypes(eventTypes: readonly string[]): WebhookEventType[] {
  const unique = [...new Set(eventTypes.map((type) => type.trim()).filter(Boolean))];
  const unknown = unique.find((type) => !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(type));
  if (unknown) {
    throw new DomainError("INVALID_PARAMETER", `unknown event type "${unknown}" (one of ${WEBHOOK_EVENT_TYPES.join(", ")})`, undefined, "eventTypes");
  }
  if (unique.length === 0) throw new DomainError("MISSING_REQUIRED_FIELD", "eventTypes must name at least one event type", undefined, "eventTypes");
  return unique as WebhookEventType[];
}

/** Creates an enabled endpoint; its secret is in this answer only (later: roll it). */
export async function createWebhookEndpoint(
  db: Db,
  input: { accountId: string; url: string; eventTypes: readonly string[]; description?: string },
) {
  const eventTypes = parseEventTypes(input.eventTypes);
  const description = input.description ?? "";
  if (description.length > MAX_DESCRIPTION_LENGTH) {
    throw new DomainError("INVALID_PARAMETER", `description must be at most ${MAX_DESCRIPTION_LENGTH} characters`, undefined, "description");
  }
  const { url } = await checkWebhookUrl(input.url);
  if ((await db.webhookEndpoint.count({ where: { userId: input.accountId } })) >= MAX_ENDPOINTS_PER_ACCOUNT) {
    throw new DomainError("RESOURCE_CONFLICT", `an account has at most ${MAX_ENDPOINTS_PER_ACCOUNT} webhook endpoints`);
  }
  const secret = generateWebhookSecret();
  const endpoint = await db.webhookEndpoint.create({
    data: { userId: input.accountId, url: url.href, description, eventTypes, secret },
    select: ENDPOINT_VIEW,
  });
  return { ...toEndpointView(endpoint), secret };
}

export async function listWebhookEndpoints(db: Db, accountId: string) {
  const endpoints = await db.webhookEndpoint.findMany({ where: { userId: accountId }, orderBy: { createdAt: "asc" }, select: ENDPOINT_VIEW });
  return endpoints.map(toEndpointView);
}

async function findEndpoint(db: Db, ref: EndpointRef) {
  const endpoint = await db.webhookEndpoint.findFirst({ where: { id: ref.id, userId: ref.accountId }, select: ENDPOINT_VIEW });
  if (!endpoint) throw new DomainError("RESOURCE_NOT_FOUND", `no webhook endpoint with id ${ref.id}`);
  return endpoint;
}

/** Enabling starts a new count of failures; disabling says who did it. */
export async function setWebhookEndpointEnabled(db: Db, ref: EndpointRef & { enabled: boolean }) {
  await findEndpoint(db, ref);
  const endpoint = await db.webhookEndpoint.update({
    where: { id: ref.id },
    data: ref.enabled ? { enabled: true, disabledReason: null, failingSince: null } : { enabled: false, disabledReason: "Disabled by its owner" },
    select: ENDPOINT_VIEW,
  });
  return toEndpointView(endpoint);
}

export async function updateWebhookEventTypes(db: Db, ref: EndpointRef & { eventTypes: readonly string[] }) {
  await findEndpoint(db, ref);
  const endpoint = await db.webhookEndpoint.update({ where: { id: ref.id }, data: { eventTypes: parseEventTypes(ref.eventTypes) }, select: ENDPOINT_VIEW });
  return toEndpointView(endpoint);
}

/** Deletes the endpoint with its deliveries; queued attempts find nothing and stop. */
export async function deleteWebhookEndpoint(db: Db, ref: EndpointRef): Promise<{ id: string; status: "deleted" }> {
  const { count } = await db.webhookEndpoint.deleteMany({ where: { id: ref.id, userId: ref.accountId } });
  if (count === 0) throw new DomainError("RESOURCE_NOT_FOUND", `no webhook endpoint with id ${ref.id}`);
  return { id: ref.id, status: "deleted" };
}

/** A new secret signs every attempt from now on, retries included; the old one stops at once. */
export async function rollWebhookSecret(db: Db, ref: EndpointRef): Promise<{ id: string; secret: string }> {
  await findEndpoint(db, ref);
  const secret = generateWebhookSecret();
  await db.webhookEndpoint.update({ where: { id: ref.id }, data: { secret } });
  return { id: ref.id, secret };
}

/** The endpoint's latest deliveries, newest first, each with its attempts. */
export async function listWebhookDeliveries(db: Db, ref: EndpointRef) {
  await findEndpoint(db, ref);
  const deliveries = await db.webhookDelivery.findMany({
    where: { endpointId: ref.id },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: RECENT_DELIVERIES,
    select: {
      id: true,
      status: true,
      attempts: true,
      nextAttemptAt: true,
      createdAt: true,
      event: { select: { id: true, type: true, createdAt: true } },
      attemptLog: {
        orderBy: { attempt: "asc" },
        select: { attempt: true, startedAt: true, durationMs: true, responseStatus: true, responseBody: true, error: true },
      },
    },
  });
  return deliveries.map(({ event, attemptLog, ...delivery }) => ({
    ...delivery,
    nextAttemptAt: delivery.nextAttemptAt?.toISOString() ?? null,
    createdAt: delivery.createdAt.toISOString(),
    event: { ...event, createdAt: event.createdAt.toISOString() },
    attempts: attemptLog.map((attempt) => ({ ...attempt, startedAt: attempt.startedAt.toISOString() })),
    attemptCount: delivery.attempts,
  }));
}

/** A new delivery of `eventId` to the endpoint, attempted now and retried on the schedule. */
async function queueDelivery(db: Db, eventId: string, endpointId: string): Promise<{ deliveryId: string }> {
  const [row] = await db.$queryRawUnsafe<{ id: string }[]>(
    `WITH "deliveries" AS (
       INSERT INTO "webhook_delivery" ("id", "eventId", "endpointId") VALUES (${NEW_DELIVERY_ID_SQL}, $1, $2) RETURNING "id", "endpointId"
     ), "queued" AS (${queueDeliveryJobsSql('"deliveries"', "now()", "$3::int")})
     SELECT "id" FROM "deliveries", "queued"`,
    eventId,
    endpointId,
    webhookSettings.endpointConcurrency,
  );
  return { deliveryId: row!.id };
}

/** Sends the delivery's event to its endpoint again, as a new delivery (same webhook-id). */
export async function resendWebhookDelivery(db: Db, input: { deliveryId: string; accountId?: string }) {
  const delivery = await db.webhookDelivery.findFirst({
    where: { id: input.deliveryId, endpoint: { userId: input.accountId } },
    select: { eventId: true, endpointId: true },
  });
  if (!delivery) throw new DomainError("RESOURCE_NOT_FOUND", `no webhook delivery with id ${input.deliveryId}`);
  return queueDelivery(db, delivery.eventId, delivery.endpointId);
}

/** A webhook.test event for this endpoint only (an enabled one: a disabled endpoint is sent nothing). */
export async function sendWebhookTestEvent(db: Db, ref: EndpointRef) {
  const endpoint = await db.webhookEndpoint.findFirst({ where: { id: ref.id, userId: ref.accountId }, select: { userId: true, enabled: true } });
  if (!endpoint) throw new DomainError("RESOURCE_NOT_FOUND", `no webhook endpoint with id ${ref.id}`);
  if (!endpoint.enabled) throw new DomainError("RESOURCE_CONFLICT", "the endpoint is disabled: enable it to send a test event");
  const event = await db.webhookEvent.create({
    data: {
      id: `msg_${randomUUID().replaceAll("-", "")}`,
      userId: endpoint.userId,
      type: WEBHOOK_TEST_EVENT,
      data: { endpointId: ref.id, message: "This is a test event." },
      dispatchedAt: new Date(),
    },
    select: { id: true },
  });
  return queueDelivery(db, event.id, ref.id);
}
