import "server-only";
/**
 * The audit log keeps 180 days (docs/audit-log.md): this daily job deletes older entries, the
 * only deletion the log's trigger allows besides the publication's own (it sets
 * blogmgr.audit_purge for its transaction, and the trigger still refuses any entry younger).
 */
import type { PoolClient } from "pg";
import { z } from "zod";
import { defineJob, JOB_NAMES } from "~/server/jobs/definition";

export const AUDIT_LOG_RETENTION_DAYS = 180;

/** Entries deleted per transaction, so a large backlog never holds one long transaction. */
const PURGE_BATCH = 5_000;

const PURGE_SQL = `WITH "purged" AS (
  DELETE FROM "audit_log" WHERE "id" IN (
    SELECT "id" FROM "audit_log" WHERE "at" < now() - make_interval(days => $1) ORDER BY "id" LIMIT $2
  ) RETURNING 1
) SELECT count(*)::int AS "count" FROM "purged"`;

/** Deletes every entry older than 180 days, in batches; returns how many went. */
export async function purgeAuditLog(client: Pick<PoolClient, "query">): Promise<number> {
  let total = 0;
  for (;;) {
    await client.query("BEGIN");
    try {
      await client.query("SELECT set_config('blogmgr.audit_purge', 'on', true)");
      const { rows } = await client.query<{ count: number }>(PURGE_SQL, [AUDIT_LOG_RETENTION_DAYS, PURGE_BATCH]);
      await client.query("COMMIT");
      const count = rows[0]?.count ?? 0;
      total += count;
      if (count < PURGE_BATCH) return total;
    } catch (error) {
      await client.query("ROLLBACK").catch(() => undefined);
      throw error;
    }
  }
}

/** Daily (src/server/jobs/worker.ts): the entries past their 180 days are deleted. */
export const purgeAuditLogJob = defineJob({
  name: JOB_NAMES.purgeAuditLog,
  payload: z.object({}),
  async run(_payload, helpers) {
    const purged = await helpers.withPgClient((client) => purgeAuditLog(client));
    if (purged > 0) helpers.logger.info(`audit log: ${purged} entries older than ${AUDIT_LOG_RETENTION_DAYS} days deleted`);
  },
});
