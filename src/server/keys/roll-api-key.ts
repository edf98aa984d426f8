import "server-only";
import type { Db } from "~/server/db";
import { DomainError } from "~/server/common/domain-error";
import { DEFAULT_GRACE, GRACE_OPTIONS, graceEndFor, isGraceOption } from "~/shared/key-grace";
import { isPermission } from "~/shared/permissions";
import { insertApiKey, type CreatedApiKey } from "./create-api-key";

export interface RolledApiKey extends CreatedApiKey {
  /** The key it replaces, which keeps working until graceEndsAt. */
  rolledKeyId: string;
  graceEndsAt: Date;
}

/**
 * Replaces an active key by a new one with the same name, description, permissions and expiration
 * policy (the same lifetime, counted from now). The old key keeps working for the grace period,
 * then is refused as rolled. It leaves the active-key quota at once (src/server/quotas/key-quota.ts),
 * so rolling never needs a free slot. With `accountId`, a key of another account counts as not found.
 * `createdById`: the member who rolls it, recorded as the new key's maker (docs/teams.md, Keys).
 */
export async function rollApiKey(
  db: Db,
  input: { id: string; accountId?: string; grace?: string; createdById?: string | null },
  now = new Date(),
): Promise<RolledApiKey> {
  const grace = input.grace ?? DEFAULT_GRACE;
  if (!isGraceOption(grace)) throw new DomainError("INVALID_PARAMETER", `grace must be one of ${GRACE_OPTIONS.join(", ")}`, undefined, "grace");
  const graceEndsAt = graceEndFor(grace, now);
  return db.$transaction(async (tx) => {
    const old = await tx.apiKey.findFirst({ where: { id: input.id, userId: input.accountId } });
    if (!old) throw new DomainError("RESOURCE_NOT_FOUND", `no API key with id ${input.id}`);
    // The update's conditions, not the read above, decide: of two concurrent rolls only one replaces the key.
    const { count } = await tx.apiKey.updateMany({
      where: { id: old.id, deactivatedAt: null, rolledAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] },
      data: { rolledAt: now, graceEndsAt },
    });
    if (count === 0) {
      const why = old.rolledAt ? "it has already been rolled" : old.deactivatedAt ? "it is deactivated" : "it has expired";
      throw new DomainError("RESOURCE_CONFLICT", `API key ${input.id} cannot be rolled: ${why}`, "Only an active key can be rolled");
    }
    const lifetime = old.expiresAt ? old.expiresAt.getTime() - old.createdAt.getTime() : null;
    const created = await insertApiKey(tx, {
      userId: old.userId,
      name: old.name,
      description: old.description,
      permissions: old.permissions.filter(isPermission),
      expiresAt: lifetime === null ? null : new Date(now.getTime() + lifetime),
      createdAt: now,
      // The new key is the roller's; one rolled without a member (the CLI) stays the old one's.
      createdById: input.createdById === undefined ? old.createdById : input.createdById,
    });
    return { ...created, rolledKeyId: old.id, graceEndsAt };
  });
}

/**
 * Ends a rolled key's grace now: its next request is refused. Ending it again, or after it ended,
 * changes nothing. A key that was never rolled is a conflict; another account's, not found.
 */
export async function endKeyGrace(db: Db, input: { id: string; accountId?: string }, now = new Date()): Promise<{ id: string; graceEndsAt: Date }> {
  const key = { id: input.id, userId: input.accountId };
  await db.apiKey.updateMany({ where: { ...key, graceEndsAt: { gt: now } }, data: { graceEndsAt: now } });
  const current = await db.apiKey.findFirst({ where: key, select: { graceEndsAt: true } });
  if (!current) throw new DomainError("RESOURCE_NOT_FOUND", `no API key with id ${input.id}`);
  if (!current.graceEndsAt) throw new DomainError("RESOURCE_CONFLICT", `API key ${input.id} has not been rolled`);
  return { id: input.id, graceEndsAt: current.graceEndsAt };
}
