import "server-only";
import type { Prisma } from "~/generated/prisma/client";
import type { Db } from "~/server/db";
import { DomainError } from "~/server/common/domain-error";
import { isoTimestampSchema } from "~/server/common/timestamps";
import { generateApiKey } from "./api-key";
import { EXPIRATION_OPTIONS, expiresAtFor, isExpirationOption } from "~/shared/key-expiration";
import { isPermission, PERMISSIONS, type Permission } from "~/shared/permissions";

export const KEY_NAME_MAX_LENGTH = 100;
export const KEY_DESCRIPTION_MAX_LENGTH = 500;

export interface CreateApiKeyInput {
  accountId: string;
  name: string;
  description?: string;
  permissions: string[];
  /** One of EXPIRATION_OPTIONS, counted from now; "never" when neither this nor expiresAt is given. */
  expires?: string;
  /** An explicit ISO 8601 moment instead of `expires`; a past one gives an already-expired key. */
  expiresAt?: string;
  /** The member who makes it (docs/teams.md, Keys): recorded; the key stays the publication's when they leave. */
  createdById?: string | null;
}

export interface CreatedApiKey {
  id: string;
  /** The full key: returned this once, only its hash is stored. */
  key: string;
  permissions: Permission[];
  expiresAt: Date | null;
}

export async function createApiKey(db: Db | Prisma.TransactionClient, input: CreateApiKeyInput): Promise<CreatedApiKey> {
  const name = parseKeyName(input.name);
  const description = parseKeyDescription(input.description ?? "");
  const permissions = parsePermissions(input.permissions);
  const createdAt = new Date();
  const expiresAt = parseExpiry(input, createdAt);
  return insertApiKey(db, { userId: input.accountId, name, description, permissions, expiresAt, createdAt, createdById: input.createdById ?? null });
}

/** Stores a new key of checked fields; only its hash is kept. */
export async function insertApiKey(
  db: Db | Prisma.TransactionClient,
  fields: { userId: string; name: string; description: string; permissions: Permission[]; expiresAt: Date | null; createdAt: Date; createdById: string | null },
): Promise<CreatedApiKey> {
  const { key, hash, prefix, suffix } = generateApiKey();
  const { id } = await db.apiKey.create({
    data: { ...fields, keyHash: hash, keyPrefix: prefix, keySuffix: suffix },
    select: { id: true },
  });
  return { id, key, permissions: fields.permissions, expiresAt: fields.expiresAt };
}

export function parseKeyName(value: string): string {
  const name = value.trim();
  if (!name) throw new DomainError("MISSING_REQUIRED_FIELD", "name is required", undefined, "name");
  if (name.length > KEY_NAME_MAX_LENGTH) {
    throw new DomainError("INVALID_PARAMETER", `name must be at most ${KEY_NAME_MAX_LENGTH} characters`, undefined, "name");
  }
  return name;
}

export function parseKeyDescription(value: string): string {
  const description = value.trim();
  if (description.length > KEY_DESCRIPTION_MAX_LENGTH) {
    throw new DomainError("INVALID_PARAMETER", `description must be at most ${KEY_DESCRIPTION_MAX_LENGTH} characters`, undefined, "description");
  }
  return description;
}

/** At least one, each a known permission; returned without repeats, in the canonical order. */
function parsePermissions(values: string[]): Permission[] {
  if (values.length === 0) throw new DomainError("MISSING_REQUIRED_FIELD", "at least one permission is required", undefined, "permissions");
  const unknown = values.find((value) => !isPermission(value));
  if (unknown !== undefined) {
    throw new DomainError("INVALID_PARAMETER", `unknown permission "${unknown}": permissions are ${PERMISSIONS.join(", ")}`, undefined, "permissions");
  }
  return PERMISSIONS.filter((permission) => values.includes(permission));
}

function parseExpiry({ expires, expiresAt }: CreateApiKeyInput, createdAt: Date): Date | null {
  if (expires !== undefined && expiresAt !== undefined) {
    throw new DomainError("INVALID_PARAMETER", "give either expires or expiresAt, not both");
  }
  if (expiresAt !== undefined) {
    const parsed = isoTimestampSchema("expiresAt").safeParse(expiresAt);
    if (!parsed.success) throw new DomainError("INVALID_PARAMETER", parsed.error.issues[0]?.message ?? "invalid expiresAt");
    return parsed.data;
  }
  const option = expires ?? "never";
  if (!isExpirationOption(option)) {
    throw new DomainError("INVALID_PARAMETER", `expires must be one of ${EXPIRATION_OPTIONS.join(", ")}`);
  }
  return expiresAtFor(option, createdAt);
}
