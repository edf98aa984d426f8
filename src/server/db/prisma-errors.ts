import "server-only";
const codeOf = (error: unknown) => (error as { code?: unknown } | null)?.code;

/** Whether Prisma refused a write because it would break a unique constraint. */
export function isUniqueViolation(error: unknown): boolean {
  return codeOf(error) === "P2002";
}

/** Whether a write that needs a matching row found none. */
export function isRecordNotFound(error: unknown): boolean {
  return codeOf(error) === "P2025";
}

/** The PostgreSQL error code (SQLSTATE) Prisma's driver adapter got, if any. */
const sqlStateOf = (error: unknown) =>
  (error as { meta?: { driverAdapterError?: { cause?: { originalCode?: unknown } } } } | null)?.meta?.driverAdapterError?.cause?.originalCode;

/** Whether a statement gave up waiting for a lock (lock_timeout). */
export function isLockTimeout(error: unknown): boolean {
  return sqlStateOf(error) === "55P03";
}

/**
 * Whether PostgreSQL refused a value itself: SQLSTATE class 22, data exception (a NUL or invalid
 * byte sequence, a value out of range or too long), through Prisma's driver adapter or straight
 * from `pg`. Inputs are checked before they get there; this is what still slips through.
 */
export function isDataException(error: unknown): boolean {
  const state = sqlStateOf(error) ?? codeOf(error);
  return typeof state === "string" && /^22[0-9A-Z]{3}$/.test(state);
}
