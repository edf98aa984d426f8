import "server-only";
import { createHash } from "node:crypto";
import type { QueryResult, QueryResultRow } from "pg";
import { env } from "~/env";
import type { SqlPool } from "~/server/db";
import { log } from "~/server/runtime/log";

/**
 * Runs a statement of the API's hot path (the key lookup, the blog list) as a named prepared
 * statement: each connection parses and plans it once, and PostgreSQL then reuses the plan, where
 * planning was about half of the list statement's time in the database (bench/README.md,
 * "Publishing"). Named by its text's hash, so one text is one statement on each connection.
 *
 * Where connections do not keep their own prepared statements (embedded PostgreSQL, whose
 * connections share one session; a pooler in transaction mode that hands each statement to any
 * server connection), preparing fails with "already exists" or "does not exist": the statement is
 * then sent unprepared, and so is every later one of this process. DATABASE_PREPARED_STATEMENTS=0
 * skips the attempt (README, Configuration).
 */
let preparing = env.DATABASE_PREPARED_STATEMENTS === "1";

/** duplicate_prepared_statement, invalid_sql_statement_name. */
const NOT_KEPT_CODES = new Set(["42P05", "26000"]);

export async function queryPrepared<Row extends QueryResultRow>(sql: SqlPool, text: string, values: unknown[]): Promise<QueryResult<Row>> {
  if (!preparing) return sql.query<Row>(text, values);
  try {
    return await sql.query<Row>({ name: `blogmgr_${createHash("sha1").update(text).digest("hex")}`, text, values });
  } catch (error) {
    if (!NOT_KEPT_CODES.has((error as { code?: unknown }).code as string)) throw error;
    if (preparing) log.warn({ cause: (error as Error).message }, "the database's connections do not keep prepared statements; sending statements unprepared");
    preparing = false;
    return sql.query<Row>(text, values);
  }
}
