import "server-only";
import { DAY_MS } from "~/shared/calendar-date";
import type { Db } from "~/server/db";
import { maskApiKey } from "./api-key";
import { isPermission, type Permission } from "~/shared/permissions";

export type ApiKeyStatus = "active" | "expired" | "deactivated";

/** Keys older than this are flagged for rotation in the dashboard. */
export const ROTATION_AGE_DAYS = 90;

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
  status: ApiKeyStatus;
  /** Active and older than ROTATION_AGE_DAYS. */
  rotationDue: boolean;
}

export function apiKeyStatus(key: { expiresAt: Date | null; deactivatedAt: Date | null }, now: Date): ApiKeyStatus {
  if (key.deactivatedAt) return "deactivated";
  if (key.expiresAt && key.expiresAt <= now) return "expired";
  return "active";
}

/** Every key of the account, newest first, as the dashboard lists them. */
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
      status,
      rotationDue: status === "active" && now.getTime() - key.createdAt.getTime() > ROTATION_AGE_DAYS * DAY_MS,
    };
  });
}
