import "server-only";
import { z } from "zod";
import { DEFAULT_PAGE, DEFAULT_PAGE_SIZE, MAX_PAGE, MAX_PAGE_SIZE } from "~/server/common/pagination";
import { MAX_SEARCH_LENGTH, presenceCheck, requiredMessage } from "~/shared/blog-fields";
import { SUBSCRIBER_NAME_MAX_LENGTH, SUBSCRIBER_SOURCES, SUBSCRIBER_STATUSES, subscriberSchema as sharedSubscriberSchema } from "~/shared/subscribers";
import { enumParam, integerParam } from "../../query-params";
import { pagePaginationSchema, successEnvelope } from "../blogs/schemas";

/** The API's contract for subscribers (docs/newsletters.md, Subscribers), as the OpenAPI document shows it. */

export const subscriberSchema = sharedSubscriberSchema
  .extend({
    id: z.string().meta({ description: "Unique identifier of the subscriber" }),
    email: z.string().meta({ description: "The address, lower-cased and trimmed: one subscriber per address per account" }),
    name: z.string().meta({ description: "The name given with the address (empty when none)" }),
    status: z.enum(SUBSCRIBER_STATUSES).meta({
      description:
        "pending: waiting for the confirmation link; active: receives posts; unsubscribed: asked to stop; bounced: the mail server refused the address for good",
    }),
    source: z.enum(SUBSCRIBER_SOURCES).meta({ description: "How it was added: the public subscribe form, a CSV import or the API" }),
    createdAt: z.iso.datetime().meta({ description: "When it was added, ISO 8601" }),
    confirmedAt: z.iso.datetime().nullable().meta({ description: "When it became active, ISO 8601; null while pending" }),
    unsubscribedAt: z.iso.datetime().nullable().meta({ description: "When it unsubscribed, ISO 8601; null if it has not" }),
  })
  .meta({ id: "Subscriber" });

export const subscriberIdParams = { subscriberId: z.string().min(1).meta({ description: "The subscriber's id" }) };

export const listSubscribersInput = z.object({
  page: integerParam("page", { min: 1, max: MAX_PAGE, default: DEFAULT_PAGE }).meta({ description: "Page number", example: 1 }),
  limit: integerParam("limit", { min: 1, max: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE }).meta({ description: "Items per page", example: 10 }),
  status: enumParam("status", SUBSCRIBER_STATUSES).meta({ description: "Only subscribers with this status", example: "active" }).optional(),
  q: z
    .string({ error: "q must be a string" })
    .max(MAX_SEARCH_LENGTH, { error: `q must be at most ${MAX_SEARCH_LENGTH} characters` })
    .meta({ description: `Search, after trimming: only subscribers whose address or name contains this text, ignoring case (at most ${MAX_SEARCH_LENGTH} characters)`, example: "example.com" })
    .optional(),
});

export const createSubscriberInput = z.object({
  // Missing or blank: MISSING_REQUIRED_FIELD, as a blog's title is (src/server/api/errors.ts).
  email: z
    .string({ error: (issue) => (issue.input == null ? requiredMessage("email") : "email must be a string") })
    .check(presenceCheck("email"))
    .trim()
    .pipe(z.email({ error: "email must be a valid email address" }).max(254, { error: "email must be at most 254 characters" }))
    .meta({ description: "The address; stored lower-cased", example: "reader@example.com" }),
  name: z
    .string({ error: "name must be a string" })
    .trim()
    .max(SUBSCRIBER_NAME_MAX_LENGTH, { error: `name must be at most ${SUBSCRIBER_NAME_MAX_LENGTH} characters` })
    .meta({ description: "The reader's name (optional)", example: "Rita Reader" })
    .optional(),
});

export const subscriberOutput = successEnvelope(z.object({ subscriber: subscriberSchema }));

export const listSubscribersOutput = successEnvelope(z.object({ subscribers: z.array(subscriberSchema), pagination: pagePaginationSchema }));

export const deleteSubscriberOutput = successEnvelope(z.object({ id: z.string(), deleted: z.literal(true) }));

/** The dashboard's import: the file's text, read by the browser (at most MAX_IMPORT_BYTES, checked again on the server). */
export const importSubscribersInput = z.object({ csv: z.string() });
