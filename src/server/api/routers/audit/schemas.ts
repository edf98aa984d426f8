import "server-only";
import { z } from "zod";
import { parseCalendarDate, DAY_MS } from "~/shared/calendar-date";
import {
  AUDIT_ACTION_PATTERN,
  AUDIT_ACTOR_KINDS,
  AUDIT_ACTOR_PATTERN,
  AUDIT_DEFAULT_PAGE_SIZE,
  AUDIT_MAX_PAGE_SIZE,
  AUDIT_TARGET_TYPES,
} from "~/shared/audit-log";
import { integerParam } from "../../query-params";
import { successEnvelope } from "../blogs/schemas";

/** The API's contract for the audit log (docs/audit-log.md), as the OpenAPI document shows it. */

export const auditEntrySchema = z
  .object({
    id: z.string().meta({ description: "The entry's id, increasing with time (a decimal number as a string)" }),
    at: z.iso.datetime().meta({ description: "When the change was made (its transaction's time), ISO 8601" }),
    actor: z
      .object({
        kind: z.enum(AUDIT_ACTOR_KINDS).meta({
          description: "member: a person in the dashboard; api_key: an API key; cli: the operator CLI; job: a background job (scheduled publishing, imports); database: a write the app did not name",
        }),
        id: z.string().nullable().meta({ description: "The member's user id, the key's id, the job's id or the CLI's operator; null when unknown" }),
        name: z.string().nullable().meta({ description: "The member's name, the key's name, the job or CLI command; as it was then" }),
      })
      .meta({ id: "AuditActor" }),
    action: z.string().meta({ description: "<target type>.<verb>: created, updated, deleted, and published, unpublished, scheduled (blogs), rolled, deactivated (keys), role_changed (members), accepted, rejected, canceled (invitations)", example: "blog.updated" }),
    target: z.object({
      type: z.enum(AUDIT_TARGET_TYPES).meta({ description: "What was changed; publication is the publication itself, settings its public settings" }),
      id: z.string().meta({ description: "Its id (for publication and settings: the publication's)" }),
    }),
    ip: z.string().nullable().meta({ description: "The client's address, as docs/security.md decides it; null for the CLI, jobs and unknown" }),
    userAgent: z.string().nullable().meta({ description: "The client's User-Agent (at most 512 characters); null when none" }),
    requestId: z.string().nullable().meta({ description: "The request's id, as its response's X-Request-Id said; null outside a request" }),
    changedFields: z.array(z.string()).meta({ description: "The names of the fields the change set (never their values; secrets are never named)" }),
  })
  .meta({ id: "AuditEntry" });

const cursorPagination = z
  .object({
    limit: z.int(),
    hasNext: z.boolean(),
    nextCursor: z.string().nullable().meta({ description: "Send as `cursor` (with the same filters) to read the next page; null on the last" }),
  })
  .meta({ id: "CursorPagination" });

/** A day (YYYY-MM-DD, UTC) or an instant (ISO 8601 with Z or an offset); `end`: a day counts to its end. */
function timeParam(name: string, edge: "start" | "end") {
  const rule = `${name} must be a date (YYYY-MM-DD) or an ISO 8601 date-time with a time zone`;
  return z
    .string({ error: rule })
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return undefined;
      const day = parseCalendarDate(value);
      if (day) return edge === "start" ? day : new Date(day.getTime() + DAY_MS);
      const instant = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/.test(value) ? new Date(value) : null;
      if (!instant || Number.isNaN(instant.getTime())) {
        ctx.addIssue({ code: "custom", message: rule });
        return z.NEVER;
      }
      return edge === "start" ? instant : new Date(instant.getTime() + 1);
    })
    .meta({ override: { type: "string", example: "2026-11-27" } });
}

const actionRule = `action must be a target type (${AUDIT_TARGET_TYPES.join(", ")}) or one action such as blog.updated`;
const actorRule = `actor must be an actor kind (${AUDIT_ACTOR_KINDS.join(", ")}) or an actor's id`;

export const auditFilterFields = {
  action: z
    .string({ error: actionRule })
    .regex(AUDIT_ACTION_PATTERN, { error: actionRule })
    .meta({ description: "A target type (every action on it, e.g. `blog`) or one action (e.g. `blog.updated`)", example: "blog.updated" })
    .optional(),
  actor: z
    .string({ error: actorRule })
    .regex(AUDIT_ACTOR_PATTERN, { error: actorRule })
    .meta({ description: `An actor kind (${AUDIT_ACTOR_KINDS.join(", ")}) or an actor's id (a member's user id, a key's id)`, example: "api_key" })
    .optional(),
  from: timeParam("from", "start").meta({ description: "Entries at or after this day (YYYY-MM-DD, UTC) or instant (ISO 8601)", example: "2026-11-01" }),
  to: timeParam("to", "end").meta({ description: "Entries up to the end of this day (YYYY-MM-DD, UTC) or up to this instant (ISO 8601), inclusive", example: "2026-11-30" }),
};

export const listAuditLogInput = z.object({
  ...auditFilterFields,
  limit: integerParam("limit", { min: 1, max: AUDIT_MAX_PAGE_SIZE, default: AUDIT_DEFAULT_PAGE_SIZE }).meta({ description: "Entries per page", example: 50 }),
  cursor: z
    .string({ error: "cursor must be a pagination.nextCursor returned by this endpoint" })
    .regex(/^[1-9]\d{0,17}$/, { error: "cursor must be a pagination.nextCursor returned by this endpoint" })
    .meta({ description: "pagination.nextCursor of the previous page: the entries after it (send the same filters)", example: "1042" })
    .optional(),
});

export const exportAuditLogInput = z.object(auditFilterFields);

export const listAuditLogOutput = successEnvelope(z.object({ entries: z.array(auditEntrySchema), pagination: cursorPagination }));
