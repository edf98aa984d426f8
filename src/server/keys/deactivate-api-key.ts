import "server-only";
import type { Db } from "~/server/db";
import { DomainError } from "~/server/common/domain-error";

/**
 * Deactivates a key for good. Deactivating it again changes nothing (the first deactivation time
 * stays). With `accountId`, a key of another account counts as not found.
 */
export async function deactivateApiKey(
  db: Db,
  input: { id: string; accountId?: string },
): Promise<{ id: string; deactivatedAt: Date }> {
  const key = { id: input.id, userId: input.accountId };
  const now = new Date();
  const { count } = await db.apiKey.updateMany({ where: { ...key, deactivatedAt: null }, data: { deactivatedAt: now } });
  if (count === 1) return { id: input.id, deactivatedAt: now };

  const existing = await db.apiKey.findFirst({ where: key, select: { deactivatedAt: true } });
  if (!existing?.deactivatedAt) throw new DomainError("RESOURCE_NOT_FOUND", `no API key with id ${input.id}`);
  return { id: input.id, deactivatedAt: existing.deactivatedAt };
}
