import "server-only";
/**
 * Puts the actor of the audit log (src/server/audit/context.ts) into every transaction the app
 * writes in, on every connection of a pool: the triggers of the audit log read it from
 * blogmgr.change_source, which is transaction-local (docs/audit-log.md), so it reaches the change
 * it names and nothing else, also through a pooler in transaction mode.
 *
 * - A transaction (BEGIN) opened while an actor is known: the setting follows at once.
 * - A lone statement that may write (INSERT, UPDATE, DELETE, MERGE) outside a transaction while an
 *   actor is known: it runs in one of its own, BEGIN, the setting, the statement, COMMIT.
 * - Anything else, and everything while no actor is known (the requests that read): as it is, no
 *   extra statement.
 */
import type pg from "pg";
import { auditSetting } from "~/server/audit/context";

/** Merges the actor into what the transaction already names (a blog's change source, src/server/blogs/change-source.ts). */
const SET_ACTOR_SQL = `SELECT set_config('blogmgr.change_source',
  (COALESCE(NULLIF(current_setting('blogmgr.change_source', true), ''), '{}')::jsonb || $1::jsonb)::text, true)`;

const BEGIN = /^\s*(BEGIN|START\s+TRANSACTION)\b/i;
const MAY_WRITE = /\b(INSERT|UPDATE|DELETE|MERGE)\b/i;

const AUDITED = Symbol("audit-writes");

type Queryable = pg.ClientBase & { [AUDITED]?: true };
type QueryFn = (config: unknown, values?: unknown, callback?: unknown) => unknown;

/** Makes `client` name the actor in the transactions it writes in (once per client; a pool's new clients: `pool.on("connect", auditWrites)`). */
export function auditWrites(client: pg.ClientBase): void {
  const audited = client as Queryable;
  if (audited[AUDITED]) return;
  audited[AUDITED] = true;
  const query = client.query.bind(client) as QueryFn;
  const run = (config: unknown, values?: unknown) => query(config, values) as Promise<pg.QueryResult>;
  const patched: QueryFn = (config, values, callback) => {
    const text = typeof config === "string" ? config : (config as { text?: unknown } | null)?.text;
    const setting = typeof text === "string" ? auditSetting() : undefined;
    // Submittables (cursors, streams), callbacks in the config, or no actor: untouched.
    if (setting === undefined || typeof text !== "string" || typeof (config as { submit?: unknown }).submit === "function") {
      return query(config, values, callback);
    }
    const done = typeof values === "function" ? (values as (error: Error | null, result?: unknown) => void) : (callback as ((error: Error | null, result?: unknown) => void) | undefined);
    const args = typeof values === "function" ? undefined : values;
    const idle = (client as pg.ClientBase & { getTransactionStatus?: () => string | null }).getTransactionStatus?.() !== "T";
    let work: Promise<pg.QueryResult>;
    if (BEGIN.test(text)) {
      work = run(config, args).then(async (result) => {
        await run(SET_ACTOR_SQL, [setting]);
        return result;
      });
    } else if (idle && MAY_WRITE.test(text)) {
      work = (async () => {
        await run("BEGIN");
        try {
          await run(SET_ACTOR_SQL, [setting]);
          const result = await run(config, args);
          await run("COMMIT");
          return result;
        } catch (error) {
          await run("ROLLBACK").catch(() => undefined);
          throw error;
        }
      })();
    } else {
      return query(config, values, callback);
    }
    if (!done) return work;
    work.then(
      (result) => done(null, result),
      (error: Error) => done(error),
    );
    return undefined;
  };
  client.query = patched as typeof client.query;
}
