import "server-only";
import { z } from "zod";
import { callerAccount } from "~/server/accounts/caller";
import { paginate } from "~/server/common/pagination";
import { parseSubscriberCsv, subscribersCsv } from "~/server/subscribers/csv";
import { addSubscriber, allSubscribers, countSubscribers, deleteSubscriber, importSubscribers, listSubscribers } from "~/server/subscribers/subscribers";
import { PLAN_SUBSCRIBER_LIMITS } from "~/shared/subscribers";
import { createTRPCRouter, ownerProcedure, procedure } from "../../trpc";
import {
  createSubscriberInput,
  deleteSubscriberOutput,
  importSubscribersInput,
  listSubscribersInput,
  listSubscribersOutput,
  subscriberIdParams,
  subscriberOutput,
} from "./schemas";

const quotas = Object.entries(PLAN_SUBSCRIBER_LIMITS).map(([plan, quota]) => `${plan} ${quota.toLocaleString("en-US")}`);

const listSubscribersProcedure = procedure
  .meta({
    permission: "read:subscribers",
    minRole: "editor",
    openapi: {
      method: "GET",
      path: "/subscribers",
      tags: ["Subscribers"],
      summary: "List subscribers",
      description:
        "The account's subscribers, newest first (ties by id). `status` filters; `q` keeps those whose address or name contains it, ignoring case. " +
        "A page past the last is an empty 200.",
    },
    errors: ["INVALID_PARAMETER"],
  })
  .input(listSubscribersInput)
  .output(listSubscribersOutput)
  .query(async ({ ctx, input }) => {
    const { subscribers, total } = await listSubscribers(ctx.db, callerAccount(ctx.caller).id, { ...input, q: input.q?.trim() || undefined });
    return { success: true as const, data: { subscribers, pagination: paginate(input.page, input.limit, total) } };
  });

const createSubscriberProcedure = procedure
  .meta({
    permission: "write:subscribers",
    minRole: "editor",
    openapi: {
      method: "POST",
      path: "/subscribers",
      tags: ["Subscribers"],
      summary: "Add a subscriber",
      description:
        "Adds an address as an `active` subscriber at once (source `api`): by calling this, the account's owner attests the reader consented, " +
        "so no confirmation email is sent. An address the account already has (compared lower-cased) is answered as it is with 200 instead of 201, " +
        "whatever its status: an unsubscribed or bounced subscriber is never reactivated this way. " +
        `Subscribers per account, every status counted: ${quotas.join(", ")}; beyond it a 413 QUOTA_EXCEEDED.`,
      successDescription: "The new subscriber",
    },
    successStatus: 201,
    alternateSuccess: { status: 200, description: "The subscriber the account already had with this address, unchanged" },
    errors: ["INVALID_PARAMETER", "MISSING_REQUIRED_FIELD", "QUOTA_EXCEEDED", "PAYLOAD_TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE"],
  })
  .input(createSubscriberInput)
  .output(subscriberOutput)
  .mutation(async ({ ctx, input }) => {
    const { subscriber, created } = await addSubscriber(ctx.db, callerAccount(ctx.caller), { ...input, source: "api" });
    if (!created && ctx.successStatus) ctx.successStatus.alternate = true;
    return { success: true as const, data: { subscriber } };
  });

const deleteSubscriberProcedure = procedure
  .meta({
    permission: "write:subscribers",
    minRole: "editor",
    openapi: {
      method: "DELETE",
      path: "/subscribers/{subscriberId}",
      tags: ["Subscribers"],
      summary: "Delete a subscriber",
      description: "Erases the subscriber: its address, name and delivery records are deleted, not kept as unsubscribed. Adding the address again starts anew.",
    },
    errors: ["RESOURCE_NOT_FOUND"],
  })
  .input(z.object(subscriberIdParams))
  .output(deleteSubscriberOutput)
  .mutation(async ({ ctx, input }) => {
    await deleteSubscriber(ctx.db, callerAccount(ctx.caller).id, input.subscriberId);
    return { success: true as const, data: { id: input.subscriberId, deleted: true as const } };
  });

/** The dashboard's "Add subscriber": the same rules as the API's, saying whether the address was new (source `import`: the owner's own list). */
const addProcedure = ownerProcedure.meta({ minRole: "editor" })
  .input(createSubscriberInput)
  .mutation(({ ctx, input }) => addSubscriber(ctx.db, callerAccount(ctx.caller), { ...input, source: "import" }));

/** The dashboard's: how many subscribers in each status, and the plan's quota. */
const countsProcedure = ownerProcedure.meta({ minRole: "editor" }).query(async ({ ctx }) => {
  const account = callerAccount(ctx.caller);
  return { counts: await countSubscribers(ctx.db, account.id), quota: PLAN_SUBSCRIBER_LIMITS[account.plan] };
});

/** The dashboard's CSV import (Substack, Ghost, Mailchimp or plain email[,name]): what was added and what skipped, and why. */
const importProcedure = ownerProcedure.meta({ minRole: "editor" }).input(importSubscribersInput).mutation(async ({ ctx, input }) => {
  const { layout, entries, invalid } = parseSubscriberCsv(input.csv);
  return { layout, ...(await importSubscribers(ctx.db, callerAccount(ctx.caller), entries, invalid)) };
});

/** The dashboard's CSV export: every subscriber, newest first. */
const exportProcedure = ownerProcedure.meta({ minRole: "editor" }).query(async ({ ctx }) => {
  const parts: string[] = [];
  for await (const batch of allSubscribers(ctx.db, callerAccount(ctx.caller).id)) parts.push(subscribersCsv(batch, parts.length === 0));
  return { csv: parts.length > 0 ? parts.join("") : subscribersCsv([], true) };
});

/** Subscribers, for API keys (/api/v1) and their owner (/api/trpc) alike. */
export const subscribersRouter = createTRPCRouter({
  list: listSubscribersProcedure,
  create: createSubscriberProcedure,
  delete: deleteSubscriberProcedure,
  add: addProcedure,
  counts: countsProcedure,
  import: importProcedure,
  export: exportProcedure,
});
