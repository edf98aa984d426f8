import "server-only";
import type { SqlPool } from "~/server/db";
import { retryIfConnectionLost } from "~/server/db/connection-errors";
import { queryPrepared } from "~/server/db/prepared-statement";
import type { Plan } from "~/shared/plans";
import { API_KEY_LOOKUP_SQL, KEY_LAST_USED_SQL, type ApiKeyRow } from "./key-sql";
import { hashApiKey } from "./api-key";
import { isPermission, type Permission } from "~/shared/permissions";

export interface AuthenticatedKey {
  id: string;
  /** Named in the blog revisions it writes. */
  name: string;
  accountId: string;
  plan: Plan;
  permissions: Permission[];
  lastUsedAt: Date | null;
}

export type KeyRejection = "unknown" | "expired" | "deactivated" | "rolled";

export type KeyLookup = { key: AuthenticatedKey } | { rejected: KeyRejection };

/**
 * Finds the key a request presents, by its hash, in one query (one round trip) that also brings
 * the account's plan and a rolled key's end of grace. Nothing is cached, so a deactivation is seen by the very next request on every instance.
 */
export async function authenticateApiKey(sql: SqlPool, presented: string, now = new Date()): Promise<KeyLookup> {
  const {
    rows: [row],
  } = await retryIfConnectionLost(() => queryPrepared<ApiKeyRow>(sql, API_KEY_LOOKUP_SQL, [hashApiKey(presented)]));
  if (!row) return { rejected: "unknown" };
  if (row.deactivatedAt) return { rejected: "deactivated" };
  if (row.graceEndsAt && row.graceEndsAt <= now) return { rejected: "rolled" };
  if (row.expiresAt && row.expiresAt <= now) return { rejected: "expired" };
  return {
    key: {
      id: row.id,
      name: row.name,
      accountId: row.userId,
      plan: row.plan as Plan,
      permissions: row.permissions.filter(isPermission),
      lastUsedAt: row.lastUsedAt,
    },
  };
}

const LAST_USED_RESOLUTION_MS = 60_000;

/** Whether "Last Used" is due for a write (it was last written over a minute ago, or never). */
export function keyUseDue(key: AuthenticatedKey, now = new Date()): boolean {
  return !key.lastUsedAt || now.getTime() - key.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS;
}

/** Records that a key was used; at most one write a minute per key is enough for "Last Used". */
export async function recordKeyUse(sql: SqlPool, key: AuthenticatedKey, now = new Date()): Promise<void> {
  if (!keyUseDue(key, now)) return;
  await sql.query(KEY_LAST_USED_SQL, [now, key.id, new Date(now.getTime() - LAST_USED_RESOLUTION_MS)]);
}
