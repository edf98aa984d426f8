const codeOf = (error: unknown) => (error as { code?: unknown } | null)?.code;

/** Whether Prisma refused a write because it would break a unique constraint. */
export function isUniqueViolation(error: unknown): boolean {
  return codeOf(error) === "P2002";
}

/** Whether a write that needs a matching row found none. */
export function isRecordNotFound(error: unknown): boolean {
  return codeOf(error) === "P2025";
}
