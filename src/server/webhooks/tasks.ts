import "server-only";
// The webhook jobs run by graphile-worker (docs/webhooks.md). Each attempt of a delivery is its
// own job, queued at the time the retry schedule gives (graphile-worker's own backoff is not used);
// deliveries of one endpoint share WEBHOOK_ENDPOINT_CONCURRENCY named queues, each of which runs
// one job at a time, so at most that many are in flight per endpoint.
import type { JobHelpers } from "graphile-worker";
import type { PoolClient } from "pg";
import { z } from "zod";
import { defineJob, JOB_NAMES } from "~/server/jobs/definition";
import { pruneUnconfirmedSubscribers } from "~/server/subscribers/prune";
import { NEW_DELIVERY_ID_SQL, queueDeliveryJobsSql } from "./delivery-jobs";
import { sendWebhook, type AttemptOutcome } from "./send-webhook";
import { webhookSettings } from "./settings";

/**
 * Makes the deliveries of undispatched events (one, or all: the sweep after a start) to the
 * account's enabled endpoints subscribed to the type, and queues their first attempts, in one
 * statement: an event is dispatched once, with all its deliveries queued, or not at all.
 */
export const fanOutWebhookEventsJob = defineJob({
  name: JOB_NAMES.fanOutWebhookEvents,
  payload: z.object({ eventId: z.string().optional() }),
  run: fanOut,
});

async function fanOut(payload: { eventId?: string }, helpers: JobHelpers): Promise<void> {
  await helpers.withPgClient((client) =>
    client.query(
      `WITH "events" AS (
         UPDATE "webhook_event" SET "dispatchedAt" = now()
         WHERE "dispatchedAt" IS NULL AND ($1::text IS NULL OR "id" = $1)
         RETURNING "id", "userId", "type"
       ), "deliveries" AS (
         INSERT INTO "webhook_delivery" ("id", "eventId", "endpointId")
         SELECT ${NEW_DELIVERY_ID_SQL}, e."id", ep."id"
         FROM "events" AS e JOIN "webhook_endpoint" AS ep
           ON ep."userId" = e."userId" AND ep."enabled" AND e."type" = ANY (ep."eventTypes")
         RETURNING "id", "endpointId"
       )
       ${queueDeliveryJobsSql('"deliveries"', "now()", "$2")}`,
      [payload.eventId ?? null, webhookSettings.endpointConcurrency],
    ),
  );
}

interface DeliveryToSend {
  id: string;
  attempts: number;
  status: string;
  endpointId: string;
  url: string;
  secret: string;
  enabled: boolean;
  eventId: string;
  type: string;
  data: unknown;
  createdAt: Date;
}

/** One attempt of a delivery; a failure queues the next one while the schedule lasts. */
export const deliverWebhookJob = defineJob({
  name: JOB_NAMES.deliverWebhook,
  payload: z.object({ deliveryId: z.string() }),
  run: deliver,
});

async function deliver(payload: { deliveryId: string }, helpers: JobHelpers): Promise<void> {
  const delivery = await helpers.withPgClient(async (client) => {
    const { rows } = await client.query<DeliveryToSend>(
      `SELECT d."id", d."attempts", d."status", d."endpointId", ep."url", ep."secret", ep."enabled",
              e."id" AS "eventId", e."type", e."data", e."createdAt"
       FROM "webhook_delivery" AS d
       JOIN "webhook_event" AS e ON e."id" = d."eventId"
       JOIN "webhook_endpoint" AS ep ON ep."id" = d."endpointId"
       WHERE d."id" = $1`,
      [payload.deliveryId],
    );
    return rows[0];
  });
  // Gone with its endpoint or event, or already settled (a job retried after its result was saved).
  if (!delivery || delivery.status !== "pending") return;
  if (!delivery.enabled) {
    await helpers.withPgClient((client) =>
      client.query(`UPDATE "webhook_delivery" SET "status" = 'failed', "nextAttemptAt" = NULL, "updatedAt" = now() WHERE "id" = $1`, [delivery.id]),
    );
    return;
  }
  const body = JSON.stringify({ type: delivery.type, timestamp: delivery.createdAt.toISOString(), data: delivery.data });
  const outcome = await sendWebhook(delivery, { id: delivery.eventId, body });
  await helpers.withPgClient((client) => transaction(client, () => recordAttempt(client, delivery, outcome)));
}

async function recordAttempt(client: PoolClient, delivery: DeliveryToSend, outcome: AttemptOutcome): Promise<void> {
  const attempt = delivery.attempts + 1;
  const retryInMs = outcome.succeeded ? undefined : webhookSettings.retryScheduleMs[attempt - 1];
  const status = outcome.succeeded ? "succeeded" : retryInMs === undefined ? "failed" : "pending";
  await client.query(
    `INSERT INTO "webhook_attempt" ("id", "deliveryId", "attempt", "startedAt", "durationMs", "responseStatus", "responseBody", "error")
     VALUES ('wa_' || replace(gen_random_uuid()::text, '-', ''), $1, $2, $3, $4, $5, $6, $7)`,
    [delivery.id, attempt, outcome.startedAt, outcome.durationMs, outcome.responseStatus, outcome.responseBody, outcome.error],
  );
  const nextAttemptAt = retryInMs === undefined ? null : new Date(Date.now() + retryInMs);
  await client.query(
    `WITH "updated" AS (
       UPDATE "webhook_delivery" SET "attempts" = $2, "status" = $3, "nextAttemptAt" = $4, "updatedAt" = now()
       WHERE "id" = $1 RETURNING "id", "endpointId"
     )
     ${queueDeliveryJobsSql('"updated"', "$4", "$5")} WHERE $4::timestamptz IS NOT NULL`,
    [delivery.id, attempt, status, nextAttemptAt, webhookSettings.endpointConcurrency],
  );
  await client.query(
    outcome.succeeded
      ? `UPDATE "webhook_endpoint" SET "failingSince" = NULL WHERE "id" = $1 AND "failingSince" IS NOT NULL`
      : `UPDATE "webhook_endpoint" SET "failingSince" = COALESCE("failingSince", $2) WHERE "id" = $1`,
    outcome.succeeded ? [delivery.endpointId] : [delivery.endpointId, outcome.startedAt],
  );
  if (!outcome.succeeded) await disableFailingEndpoints(client, delivery.endpointId);
}

/** Disables endpoints (one, or all) whose deliveries have failed without a success for 5 days. */
async function disableFailingEndpoints(client: PoolClient, endpointId: string | null): Promise<void> {
  await client.query(
    `UPDATE "webhook_endpoint"
     SET "enabled" = false, "updatedAt" = now(),
         "disabledReason" = 'Disabled automatically: every delivery failed since ' || "webhook_iso_time"("failingSince")
     WHERE "enabled" AND "failingSince" < now() - make_interval(secs => $2::double precision / 1000)
       AND ($1::text IS NULL OR "id" = $1)`,
    [endpointId, webhookSettings.disableAfterFailingMs],
  );
}

/**
 * Hourly: api_key.expiring once per key, 7 days ahead; endpoints failing 5 days; deliveries kept
 * 30 days; graphile-worker's idle named queues dropped (each endpoint has
 * WEBHOOK_ENDPOINT_CONCURRENCY of them, and the engine keeps a row per queue); and, not a
 * webhook's but as hourly, subscribers who never confirmed forgotten (docs/newsletters.md).
 */
export const maintainWebhooksJob = defineJob({
  name: JOB_NAMES.maintainWebhooks,
  payload: z.object({}),
  async run(_payload, helpers, engine) {
    await maintain(helpers);
    await engine.withUtils((utils) => utils.cleanup({ tasks: ["GC_JOB_QUEUES"] }));
  },
});

async function maintain(helpers: JobHelpers): Promise<void> {
  await helpers.withPgClient(async (client) => {
    await client.query(
      `SELECT "webhook_record_event"(k."userId", 'api_key.expiring', "webhook_api_key_view"(k))
       FROM "api_key" AS k
       WHERE k."deactivatedAt" IS NULL AND k."expiresAt" > now()
         AND k."expiresAt" <= now() + make_interval(secs => $1::double precision / 1000)
         AND NOT EXISTS (SELECT 1 FROM "webhook_event" AS e WHERE e."type" = 'api_key.expiring' AND e."data"->>'id' = k."id")`,
      [webhookSettings.expiringNoticeMs],
    );
    await disableFailingEndpoints(client, null);
    await pruneUnconfirmedSubscribers(client);
    // Deliveries and their attempts go with their events.
    await client.query(`DELETE FROM "webhook_event" WHERE "createdAt" < now() - make_interval(secs => $1::double precision / 1000)`, [
      webhookSettings.retentionMs,
    ]);
  });
}

async function transaction(client: PoolClient, work: () => Promise<void>): Promise<void> {
  await client.query("BEGIN");
  try {
    await work();
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK");
    throw error;
  }
}
