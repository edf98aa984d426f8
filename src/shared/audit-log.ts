/**
 * The audit log's vocabulary (docs/audit-log.md), shared by the API's parameters and the
 * dashboard's filters: who can be an actor, and what can be a target (an action is
 * "<target type>.<verb>", e.g. "blog.updated").
 */

/** member: a person in the dashboard; api_key: a key; cli: the operator CLI; job: a background job; database: a write the app did not name. */
export const AUDIT_ACTOR_KINDS = ["member", "api_key", "cli", "job", "database"] as const;
export type AuditActorKind = (typeof AUDIT_ACTOR_KINDS)[number];

/** Who makes the changes being written (src/server/audit/context.ts): "database" is what no actor names. */
export interface AuditActor {
  kind: Exclude<AuditActorKind, "database">;
  /** The member's user id, the key's id, the job's id, the CLI's operator. */
  id?: string;
  /** What the log shows: the member's name, the key's name, the CLI command, the job's name. */
  name?: string;
}

/** What is audited, each by its target type: publication is the publication itself (name, handle, plan), settings its public settings. */
export const AUDIT_TARGET_TYPES = ["blog", "publication", "settings", "member", "invitation", "api_key", "webhook", "subscriber", "import"] as const;
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

/** Entries are kept this many days, then deleted by a daily job. */
export const AUDIT_RETENTION_DAYS = 180;

/** An action filter: a target type (every action on it) or one action, "<type>.<verb>". */
export const AUDIT_ACTION_PATTERN = /^[a-z_]{1,40}(\.[a-z_]{1,40})?$/;

/** An actor filter: an actor kind, or an actor's id (a member's user id, a key's id, a job's id, the CLI's operator). */
export const AUDIT_ACTOR_PATTERN = /^[A-Za-z0-9_.@:-]{1,200}$/;

export const AUDIT_DEFAULT_PAGE_SIZE = 50;
export const AUDIT_MAX_PAGE_SIZE = 100;

/** An entry as the API returns it. */
export interface AuditEntryView {
  id: string;
  at: string;
  actor: { kind: AuditActorKind; id: string | null; name: string | null };
  action: string;
  target: { type: AuditTargetType; id: string };
  ip: string | null;
  userAgent: string | null;
  requestId: string | null;
  changedFields: string[];
}
