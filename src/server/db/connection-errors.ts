import "server-only";
import { log } from "~/server/runtime/log";

// Node's socket errors, PostgreSQL's SQLSTATEs (shutdown, starting up, too many connections) and
// Prisma's (P1001 can't reach, P1002 timed out, P1017 the server closed the connection).
const UNAVAILABLE_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ENOTFOUND", "ETIMEDOUT", "EAI_AGAIN", "57P01", "57P03", "53300", "P1001", "P1002", "P1017"]);
const UNAVAILABLE_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|Can't reach database server|DatabaseNotReachable/i;
/** A connection that existed and died (the server restarted, the network dropped it): not a refusal or a timeout. */
const LOST_CODES = new Set(["ECONNRESET", "EPIPE", "57P01", "P1017"]);
const LOST_MESSAGES = /Connection terminated|Server has closed the connection/i;

/** Whether `error`, or an error it was caused by (Prisma wraps the driver's), matches. */
function anyCause(error: unknown, matches: (code: unknown, message: unknown, kind: unknown) => boolean): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 8; depth++) {
    const { code, message, cause, kind } = e as { code?: unknown; message?: unknown; cause?: unknown; kind?: unknown };
    if (matches(code, message, kind)) return true;
    if (e instanceof AggregateError && e.errors.some((inner) => anyCause(inner, matches))) return true;
    e = cause;
  }
  return false;
}

/** Whether the error says the database could not be reached (answered as a 503). */
export function isDatabaseUnavailable(error: unknown): boolean {
  return anyCause(
    error,
    (code, message, kind) =>
      (typeof code === "string" && UNAVAILABLE_CODES.has(code)) ||
      kind === "DatabaseNotReachable" ||
      kind === "ConnectionClosed" ||
      (typeof message === "string" && UNAVAILABLE_MESSAGES.test(message)),
  );
}

/** Whether the error says the connection the work ran on died under it. */
export function isConnectionLost(error: unknown): boolean {
  return anyCause(
    error,
    (code, message, kind) =>
      (typeof code === "string" && LOST_CODES.has(code)) || kind === "ConnectionClosed" || (typeof message === "string" && LOST_MESSAGES.test(message)),
  );
}

/** Runs in all: a restart leaves the pool several dead connections, which it drops as it notices them. */
const MAX_RUNS = 3;
/** Long enough for the pool to see the other connections of a restart end, short next to a request. */
const PAUSE_MS = 10;

/**
 * Runs `work`, and again (up to MAX_RUNS in all) while the connection it got died under it. After a
 * database restart or a network cut, the pool can still hand out idle connections whose end it has
 * not noticed yet; a run a moment later gets a fresh one. A database that refuses or times out is
 * not retried. Only for work that is safe to run twice: a read, or a transaction whose next run
 * finds what the previous one committed (docs/security.md, Idempotent creates survive faults).
 */
export async function retryIfConnectionLost<T>(work: () => Promise<T>): Promise<T> {
  for (let run = 1; ; run++) {
    try {
      return await work();
    } catch (error) {
      if (run === MAX_RUNS || !isConnectionLost(error)) throw error;
      log.warn({ cause: error instanceof Error ? error.message : String(error), run }, "database connection lost; running again");
      await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
    }
  }
}
