import "server-only";
import { callerAccount } from "~/server/accounts/caller";
import { auditLogCsv, listAuditLog, type AuditQuery } from "~/server/audit/audit-log";
import { ApiError } from "../../errors";
import { createTRPCRouter, procedure } from "../../trpc";
import { exportAuditLogInput, listAuditLogInput, listAuditLogOutput } from "./schemas";

/**
 * The audit log (docs/audit-log.md): read with `read:audit`, which a key may be given and which,
 * among members, the owner and administrators hold (docs/teams.md, the role table).
 */

function auditQuery(input: { action?: string; actor?: string; from?: Date; to?: Date }): AuditQuery {
  if (input.from && input.to && input.from >= input.to) {
    throw new ApiError("INVALID_PARAMETER", "Invalid parameter: from", "from must not be after to", { field: "from" });
  }
  return { action: input.action, actor: input.actor, from: input.from, before: input.to };
}

const listProcedure = procedure
  .meta({
    permission: "read:audit",
    minRole: "administrator",
    openapi: {
      method: "GET",
      path: "/audit-log",
      tags: ["Audit log"],
      summary: "List audit log entries",
      description:
        "Every change to the publication (blogs, settings, members, roles, invitations, keys, webhooks, subscribers, imports), newest first: " +
        "who made it (a member, an API key, the CLI, a job), when, from which address and user agent, in which request, and the names of the fields it changed, never their values. " +
        "Entries are kept 180 days. `action`, `actor`, `from` and `to` filter (all must hold); pass pagination.nextCursor as `cursor`, with the same filters, for the next page.",
    },
    errors: ["INVALID_PARAMETER"],
  })
  .input(listAuditLogInput)
  .output(listAuditLogOutput)
  .query(async ({ ctx, input }) => {
    const page = await listAuditLog(ctx.sql, callerAccount(ctx.caller).id, auditQuery(input), input.limit, input.cursor);
    return { success: true as const, data: page };
  });

/** The dashboard's CSV download: the entries the filters keep, newest first (at most 100,000). */
const exportProcedure = procedure
  .meta({ permission: "read:audit", minRole: "administrator" })
  .input(exportAuditLogInput)
  .query(({ ctx, input }) => auditLogCsv(ctx.sql, callerAccount(ctx.caller).id, auditQuery(input)));

export const auditRouter = createTRPCRouter({
  list: listProcedure,
  export: exportProcedure,
});
