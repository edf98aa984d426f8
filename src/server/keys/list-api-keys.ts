import "server-only";
import { DAY_MS } from "~/shared/calendar-date";
import type { Db } from "~/server/db";
import { maskApiKey } from "./api-key";
import { isPermission, type Permission } from "~/shared/permissions";

/** `rolled`: replaced by a new key, and past its grace. A rolled key in its grace is still `active`. */
export type ApiKeyStatus = "active" | "expired" | "deactivated" | "rolled";

/** Active keys older than this are flagged, with "Roll" as their action. */
export const ROTATION_AGE_DAYS = 90;
/** Active keys expiring within this many days are flagged, in the list and on the dashboard's first page. */
export const EXPIRY_WARNING_DAYS = 7;

export interface ApiKeySummary {
  id: string;
  name: string;
  description: string;
  /** `bm_abcd…wxyz`: the key itself is never stored. */
  maskedKey: string;
  permissions: Permission[];
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  deactivatedAt: string | null;
  /** When the key was rolled; it keeps working until graceEndsAt. */
  rolledAt: string | null;
  graceEndsAt: string | null;
  status: ApiKeyStatus;
  /** Active, not rolled, and older than ROTATION_AGE_DAYS. */
  rotationDue: boolean;
  /** Active and expiring within EXPIRY_WARNING_DAYS. */
  expiringSoon: boolean;
  /**
   * The name of the member who made it, or null once they are no longer a member ("a former
   * member"): the key keeps working whoever made it (docs/teams.md, Keys).
   */
  createdBy: string | null;
}

interface KeyState {
  expiresAt: Date | null;
  deactivatedAt: Date | null;
  graceEndsAt: Date | null;
}

export function apiKeyStatus(key: KeyState, now: Date): ApiKeyStatus {
  if (key.deactivatedAt) return "deactivated";
  if (key.graceEndsAt && key.graceEndsAt <= now) return "rolled";
  if (key.expiresAt && key.expiresAt <= now) return "expired";
  return "active";
}

/** Every key of the publication, newest first, as the dashboard lists them, with who made each. */
export async function listApiKeys(db: Db, accountId: string, now = new Date()): Promise<ApiKeySummary[]> {
  const keys = await db.apiKey.findMany({
    where: { userId: accountId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: {
      id: true,
      name: true,
      description: true,
      keyPrefix: true,
      keySuffix: true,
      permissions: true,
      createdAt: true,
      lastUsedAt: true,
      expiresAt: true,
      deactivatedAt: true,
      rolledAt: true,
      graceEndsAt: true,
      createdBy: { select: { name: true, memberships: { where: { organizationId: accountId }, select: { id: true } } } },
    },
  });
  return keys.map((key) => {
    const status = apiKeyStatus(key, now);
    return {
      id: key.id,
      name: key.name,
      description: key.description,
      maskedKey: maskApiKey(key.keyPrefix, key.keySuffix),
      permissions: key.permissions.filter(isPermission),
      createdAt: key.createdAt.toISOString(),
      lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
      expiresAt: key.expiresAt?.toISOString() ?? null,
      deactivatedAt: key.deactivatedAt?.toISOString() ?? null,
      rolledAt: key.rolledAt?.toISOString() ?? null,
      graceEndsAt: key.graceEndsAt?.toISOString() ?? null,
      status,
      rotationDue: status === "active" && !key.rolledAt && now.getTime() - key.createdAt.getTime() > ROTATION_AGE_DAYS * DAY_MS,
      expiringSoon: status === "active" && key.expiresAt !== null && key.expiresAt.getTime() - now.getTime() <= EXPIRY_WARNING_DAYS * DAY_MS,
      createdBy: key.createdBy && key.createdBy.memberships.length > 0 ? key.createdBy.name : null,
    };
  });
}
