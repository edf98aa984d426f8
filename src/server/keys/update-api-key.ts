import "server-only";
import type { Db } from "~/server/db";
import { DomainError } from "~/server/common/domain-error";
import { parseKeyDescription, parseKeyName } from "./create-api-key";

/** Renames a key and/or changes its description (any status: history keeps its names). */
export async function updateApiKey(
  db: Db,
  input: { id: string; accountId?: string; name?: string; description?: string },
): Promise<{ id: string; name: string; description: string }> {
  const data = {
    ...(input.name !== undefined && { name: parseKeyName(input.name) }),
    ...(input.description !== undefined && { description: parseKeyDescription(input.description) }),
  };
  const owned = await db.apiKey.findFirst({ where: { id: input.id, userId: input.accountId }, select: { id: true } });
  if (!owned) throw new DomainError("RESOURCE_NOT_FOUND", `no API key with id ${input.id}`);
  return db.apiKey.update({ where: { id: owned.id }, data, select: { id: true, name: true, description: true } });
}
