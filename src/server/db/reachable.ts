import "server-only";
import pg from "pg";

const CONNECT_TIMEOUT_MS = 5_000;

/** The database a connection string names, as `host:port/database`: never its user or password. */
export function describeDatabase(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    return `${url.hostname}:${url.port || "5432"}${url.pathname}`;
  } catch {
    return "(DATABASE_URL is not a URL)";
  }
}

/**
 * Connects once before migrations run, so that a database that cannot be reached is reported in
 * one line (which database, why) instead of by the migration engine's WebAssembly stack trace.
 */
export async function assertDatabaseReachable(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  client.on("error", () => {});
  try {
    await client.connect();
  } catch (error) {
    throw new Error(`Cannot reach the database ${describeDatabase(databaseUrl)}: ${failureCause(error)}`);
  } finally {
    await client.end().catch(() => {});
  }
}

/** "ECONNREFUSED (connect ECONNREFUSED 127.0.0.1:1)", "28P01 (password authentication failed ...)". */
function failureCause(error: unknown): string {
  const { code, message } = error as { code?: unknown; message?: unknown };
  const text = typeof message === "string" && message ? message.split("\n")[0]! : "";
  if (typeof code !== "string") return text || String(error);
  return text && text !== code ? `${code} (${text})` : code;
}
