import "server-only";
/**
 * Reading the audit log (docs/audit-log.md): a publication's entries newest first, by keyset on
 * the entry's id (the cursor), filtered by action, actor and time; and the same as CSV.
 */
import { stringify } from "csv-stringify/sync";
import type { SqlPool } from "~/server/db";
import { AUDIT_ACTOR_KINDS, type AuditActorKind, type AuditEntryView, type AuditTargetType } from "~/shared/audit-log";

export interface AuditQuery {
  /** A target type ("blog") or one action ("blog.updated"). */
  action?: string;
  /** An actor kind ("api_key") or an actor's id. */
  actor?: string;
  /** Entries at or after this instant. */
  from?: Date;
  /** Entries before this instant. */
  before?: Date;
}

interface AuditRow {
  id: string;
  at: Date;
  actorKind: string;
  actorId: string | null;
  actorName: string | null;
  action: string;
  targetType: string;
  targetId: string;
  ip: string | null;
  userAgent: string | null;
  requestId: string | null;
  changedFields: string[] | null;
}

// The index ("userId", "id" DESC) serves every page: filters only drop rows of that walk.
const LIST_SQL = `SELECT "id"::text AS "id", "at", "actorKind", "actorId", "actorName", "action", "targetType", "targetId",
  "ip", "userAgent", "requestId", "changedFields"
FROM "audit_log"
WHERE "userId" = $1
  AND ($2::text IS NULL OR "targetType" = $2)
  AND ($3::text IS NULL OR "action" = $3)
  AND ($4::text IS NULL OR "actorKind" = $4)
  AND ($5::text IS NULL OR "actorId" = $5)
  AND ($6::timestamptz IS NULL OR "at" >= $6)
  AND ($7::timestamptz IS NULL OR "at" < $7)
  AND ($8::bigint IS NULL OR "id" < $8)
ORDER BY "audit_log"."id" DESC
LIMIT $9`;

function params(accountId: string, query: AuditQuery, after: string | undefined, limit: number): unknown[] {
  const action = query.action;
  const isKind = query.actor !== undefined && (AUDIT_ACTOR_KINDS as readonly string[]).includes(query.actor);
  return [
    accountId,
    action && !action.includes(".") ? action : null,
    action?.includes(".") ? action : null,
    isKind ? query.actor : null,
    query.actor !== undefined && !isKind ? query.actor : null,
    query.from ?? null,
    query.before ?? null,
    after ?? null,
    limit,
  ];
}

function view(row: AuditRow): AuditEntryView {
  return {
    id: row.id,
    at: row.at.toISOString(),
    actor: { kind: row.actorKind as AuditActorKind, id: row.actorId, name: row.actorName },
    action: row.action,
    target: { type: row.targetType as AuditTargetType, id: row.targetId },
    ip: row.ip,
    userAgent: row.userAgent,
    requestId: row.requestId,
    changedFields: row.changedFields ?? [],
  };
}

export interface AuditPage {
  entries: AuditEntryView[];
  pagination: { limit: number; hasNext: boolean; nextCursor: string | null };
}

/** One page of entries, newest first, after the entry `cursor` names (the previous page's last). */
export async function listAuditLog(sql: SqlPool, accountId: string, query: AuditQuery, limit: number, cursor?: string): Promise<AuditPage> {
  const { rows } = await sql.query<AuditRow>(LIST_SQL, params(accountId, query, cursor, limit + 1));
  const entries = rows.slice(0, limit).map(view);
  const hasNext = rows.length > limit;
  return { entries, pagination: { limit, hasNext, nextCursor: hasNext ? entries[entries.length - 1]!.id : null } };
}

export const AUDIT_CSV_COLUMNS = [
  "id", "at", "actor_kind", "actor_id", "actor_name", "action", "target_type", "target_id", "ip", "user_agent", "request_id", "changed_fields",
] as const;

/** At most this many entries in one CSV (newest first): narrower filters for more. */
export const AUDIT_CSV_MAX_ROWS = 100_000;
const CSV_BATCH = 1_000;

/** The entries matching `query`, newest first, as CSV (changed fields separated by spaces); truncated at AUDIT_CSV_MAX_ROWS. */
export async function auditLogCsv(sql: SqlPool, accountId: string, query: AuditQuery): Promise<{ csv: string; rows: number; truncated: boolean }> {
  const parts: string[] = [];
  let cursor: string | undefined;
  let count = 0;
  for (;;) {
    const page = await listAuditLog(sql, accountId, query, Math.min(CSV_BATCH, AUDIT_CSV_MAX_ROWS - count), cursor);
    parts.push(
      stringify(
        page.entries.map((e) => [e.id, e.at, e.actor.kind, e.actor.id ?? "", e.actor.name ?? "", e.action, e.target.type, e.target.id, e.ip ?? "", e.userAgent ?? "", e.requestId ?? "", e.changedFields.join(" ")]),
        // A name or user agent opening with = + - @ would run as a formula in a spreadsheet: escaped with a quote.
        { header: parts.length === 0, columns: [...AUDIT_CSV_COLUMNS], escape_formulas: true },
      ),
    );
    count += page.entries.length;
    if (!page.pagination.hasNext) return { csv: parts.join(""), rows: count, truncated: false };
    if (count >= AUDIT_CSV_MAX_ROWS) return { csv: parts.join(""), rows: count, truncated: true };
    cursor = page.pagination.nextCursor ?? undefined;
  }
}
