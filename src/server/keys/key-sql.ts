import "server-only";
/**
 * The SQL of the API key check (src/server/keys/authenticate.ts), sent to the shared pool
 * (getSqlPool); the benchmark's bare baseline (bench/baseline.ts) runs the same text.
 */

/** Key lookup by hash with its publication's plan (the key names its publication: no membership to read): one round trip (Prisma's findUnique takes two). */
export const API_KEY_LOOKUP_SQL = `SELECT k."id", k."userId", k."name", k."permissions", k."expiresAt", k."deactivatedAt", k."graceEndsAt", k."lastUsedAt", a."plan"::text AS "plan"
FROM "api_key" AS k JOIN "organization" AS a ON a."id" = k."userId"
WHERE k."keyHash" = $1`;

export interface ApiKeyRow {
  id: string;
  userId: string;
  name: string;
  permissions: string[];
  expiresAt: Date | null;
  deactivatedAt: Date | null;
  /** Set once the key is rolled: from then on it is refused. */
  graceEndsAt: Date | null;
  lastUsedAt: Date | null;
  plan: string;
}

/** "Last Used", written at most once a minute per key ($3 = now - 1 minute). */
export const KEY_LAST_USED_SQL = `UPDATE "api_key" SET "lastUsedAt" = $1 WHERE "id" = $2 AND ("lastUsedAt" IS NULL OR "lastUsedAt" < $3)`;
