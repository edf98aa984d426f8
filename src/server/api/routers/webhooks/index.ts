import "server-only";
import { z } from "zod";
import { callerAccount } from "~/server/accounts/caller";
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  listWebhookDeliveries,
  listWebhookEndpoints,
  resendWebhookDelivery,
  rollWebhookSecret,
  sendWebhookTestEvent,
  setWebhookEndpointEnabled,
  updateWebhookEventTypes,
} from "~/server/webhooks/endpoints";
import { WEBHOOK_EVENT_TYPES } from "~/shared/webhook-events";
import { createTRPCRouter, ownerProcedure } from "../../trpc";
import { requireVerifiedEmail } from "../../require-verified-email";

const endpointId = z.object({ id: z.string().min(1) });
const eventTypes = z.array(z.string()).max(WEBHOOK_EVENT_TYPES.length, { error: `at most ${WEBHOOK_EVENT_TYPES.length} event types` });

/**
 * Webhook endpoints, for their owner in the dashboard (not part of /api/v1): every procedure is
 * owner only (ownerProcedure, no OpenAPI meta) and finds only the owner's endpoints (docs/webhooks.md).
 */
export const webhooksRouter = createTRPCRouter({
  list: ownerProcedure.meta({ minRole: "administrator" }).query(({ ctx }) => listWebhookEndpoints(ctx.db, callerAccount(ctx.caller).id)),
  create: ownerProcedure.meta({ minRole: "administrator" })
    .input(z.object({ url: z.string().max(4_096), eventTypes, description: z.string().optional() }))
    .mutation(({ ctx, input }) => {
      requireVerifiedEmail(ctx.caller);
      return createWebhookEndpoint(ctx.db, { ...input, accountId: callerAccount(ctx.caller).id });
    }),
  setEnabled: ownerProcedure.meta({ minRole: "administrator" })
    .input(endpointId.extend({ enabled: z.boolean() }))
    .mutation(({ ctx, input }) => setWebhookEndpointEnabled(ctx.db, { ...input, accountId: callerAccount(ctx.caller).id })),
  setEventTypes: ownerProcedure.meta({ minRole: "administrator" })
    .input(endpointId.extend({ eventTypes }))
    .mutation(({ ctx, input }) => updateWebhookEventTypes(ctx.db, { ...input, accountId: callerAccount(ctx.caller).id })),
  rollSecret: ownerProcedure.meta({ minRole: "administrator" }).input(endpointId).mutation(({ ctx, input }) => rollWebhookSecret(ctx.db, { ...input, accountId: callerAccount(ctx.caller).id })),
  delete: ownerProcedure.meta({ minRole: "administrator" }).input(endpointId).mutation(({ ctx, input }) => deleteWebhookEndpoint(ctx.db, { ...input, accountId: callerAccount(ctx.caller).id })),
  deliveries: ownerProcedure.meta({ minRole: "administrator" }).input(endpointId).query(({ ctx, input }) => listWebhookDeliveries(ctx.db, { ...input, accountId: callerAccount(ctx.caller).id })),
  resend: ownerProcedure.meta({ minRole: "administrator" })
    .input(z.object({ deliveryId: z.string().min(1) }))
    .mutation(({ ctx, input }) => resendWebhookDelivery(ctx.db, { ...input, accountId: callerAccount(ctx.caller).id })),
  sendTest: ownerProcedure.meta({ minRole: "administrator" }).input(endpointId).mutation(({ ctx, input }) => sendWebhookTestEvent(ctx.db, { ...input, accountId: callerAccount(ctx.caller).id })),
});
