import "server-only";
import { JOB_NAMES } from "~/server/jobs/definition";

/** Jobs that fail on a database error are retried by graphile-worker this many times in all. */
const JOB_ATTEMPTS = 10;

/**
 * SQL queueing one attempt job for each row of `deliveries` (a CTE with "id" and "endpointId"),
 * at `runAtSql`, answering the number queued as "queued". Deliveries of one endpoint share
 * `concurrencyParam` named queues, each running one job at a time (docs/webhooks.md).
 */
export function queueDeliveryJobsSql(deliveries: string, runAtSql: string, concurrencyParam: string): string {
  return `SELECT count((graphile_worker.add_job('${JOB_NAMES.deliverWebhook}', json_build_object('deliveryId', d."id"),
      queue_name := 'webhook:' || d."endpointId" || ':' || ((hashtext(d."id") & 2147483647) % ${concurrencyParam}),
      run_at := ${runAtSql}, max_attempts := ${JOB_ATTEMPTS})).id)::int AS "queued"
    FROM ${deliveries} AS d`;
}

/** A new delivery's id, made in SQL. */
export const NEW_DELIVERY_ID_SQL = `'wd_' || replace(gen_random_uuid()::text, '-', '')`;
