import { nextUtcHour } from "../ratelimit/hour";
import { clusterLogDir } from "../support/server-logs";

/** The rig's settings for a test file: the suite's environment (Redis, mailbox, webhooks), its logs kept under test-results/cluster/<file>/. */
export const clusterOptions = (file: string) => ({
  databaseUrl: process.env.DATABASE_URL!,
  env: { ...process.env },
  logDir: clusterLogDir(file),
});

/** How many of `items` have each key, e.g. answers by status: { 200: 100, 429: 100 }. */
export function countBy<T>(items: T[], key: (item: T) => string | number): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[key(item)] = (counts[key(item)] ?? 0) + 1;
  return counts;
}

/** How many answers had each status. */
export const statusCounts = (answers: { status: number }[]) => countBy(answers, ({ status }) => status);

/** Waits out the last 20 s of a UTC hour: hourly budgets start afresh at its end, mid-race. */
export async function awayFromTheHourEnd(): Promise<void> {
  const left = nextUtcHour(Date.now()) - Date.now();
  if (left < 20_000) await new Promise((resolve) => setTimeout(resolve, left + 1_000));
}
