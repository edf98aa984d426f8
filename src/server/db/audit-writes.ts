import "server-only";
/**
 * Puts the actor of the audit log (src/server/audit/context.ts) into every transaction the app
 * writes in, on every connection of a pool: the triggers of the audit log read it from
 * blogmgr.change_source, which is transaction-local (docs/audit-log.md), so it reaches the change
 * it names and nothing else, also through a pooler in transaction mode.
 *
 * - A transaction (BEGIN) opened while an actor is known: the setting goes with the BEGIN, in the
 *   same message (one simple query of two statements), so it costs no round trip.
 * - A lone statement that may write (INSERT, UPDATE, DELETE, MERGE) outside a transaction while an
 *   actor is known: it runs in one of its own (BEGIN with the setting, the statement, COMMIT: two
 *   round trips more).
 * - Anything else, and everything while no actor is known (the requests that read): as it is.
 */
import type pg from "pg";
import { auditSetting } from "~/server/audit/context";

/** The actor merged into what the transaction names (a blog's change source, src/server/blogs/change-source.ts); the JSON as an escaped literal. */
const setActor = (client: pg.ClientBase, setting: string) =>
  `SELECT set_config('blogmgr.change_source', (COALESCE(NULLIF(current_setting('blogmgr.change_source', true), ''), '{}')::jsonb || ${client.escapeLiteral(setting)}::jsonb)::text, true)`;

/** BEGIN and the actor as one simple query: no round trip more than the BEGIN's. */
const beginAs = (client: pg.ClientBase, setting: string) => `BEGIN; ${setActor(client, setting)}`;

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
    if (BEGIN.test(text) && text.trim().replace(/;$/, "").trim().toUpperCase() === "BEGIN") {
      // The BEGIN's own answer, as its caller expects it (a simple query of two answers two results).
      work = run(beginAs(client, setting)).then((results) => (Array.isArray(results) ? (results[0] as pg.QueryResult) : results));
    } else if (BEGIN.test(text)) {
      // BEGIN with options (ISOLATION LEVEL, READ ONLY): as sent, then the setting.
      work = run(config, args).then(async (result) => {
        await run(setActor(client, setting));
        return result;
      });
    } else if (idle && MAY_WRITE.test(text)) {
      work = (async () => {
        try {
          await run(beginAs(client, setting));
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
