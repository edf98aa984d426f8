import type { Db } from "~/server/db";
import { formatCalendarDate } from "~/server/calendar-date";

export interface ApiRequestRecord {
  accountId: string;
  keyId: string;
  method: string;
  /** Route template, e.g. /blogs/{id}: one row per endpoint, whatever the ids. */
  path: string;
  status: number;
  at: Date;
}

/** Which outcome counter a status adds to; a 429 counts as rate limited, not as a client error. */
export function outcomeOf(status: number): "succeeded" | "clientErrors" | "serverErrors" | "rateLimited" {
  if (status === 429) return "rateLimited";
  if (status >= 500) return "serverErrors";
  if (status >= 400) return "clientErrors";
  return "succeeded";
}

/** Adds one request to its day's aggregate row (one atomic upsert). */
export async function recordApiRequest(db: Db, record: ApiRequestRecord): Promise<void> {
  const id = {
    userId: record.accountId,
    day: new Date(formatCalendarDate(record.at)),
    keyId: record.keyId,
    method: record.method,
    path: record.path,
  };
  const outcome = outcomeOf(record.status);
  await db.usageDaily.upsert({
    where: { userId_day_keyId_method_path: id },
    create: { ...id, requests: 1, [outcome]: 1 },
    update: { requests: { increment: 1 }, [outcome]: { increment: 1 } },
  });
}
