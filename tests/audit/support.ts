import { db } from "../support/api";

/** A publication's audit entries, oldest first, as stored. */
export async function entriesOf(accountId: string) {
  return db().auditLog.findMany({ where: { userId: accountId }, orderBy: { id: "asc" } });
}

/** The entries of one target, oldest first. */
export async function entriesFor(accountId: string, targetId: string) {
  return db().auditLog.findMany({ where: { userId: accountId, targetId }, orderBy: { id: "asc" } });
}

/** Polls `read` until `done` holds of its value (a job's work), failing after `timeoutMs`. */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > end) throw new Error(`not reached in ${timeoutMs} ms: ${JSON.stringify(value, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v))}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
