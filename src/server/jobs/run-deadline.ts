import "server-only";

/** When the runs of due jobs in progress (Vercel's cron calls) must have ended, latest last; none for a worker that keeps running. */
const runsEndingBy: number[] = [];

/**
 * Runs `work`, a run of the due jobs that must end by `deadline` (a Vercel function's time limit,
 * src/server/jobs/worker.ts runDueJobs). Long jobs read jobsDeadline() meanwhile and stop in time,
 * leaving the rest to a job they queue for the next run (newsletter batches, imports).
 */
export async function withJobsEndingBy<T>(deadline: number, work: () => Promise<T>): Promise<T> {
  runsEndingBy.push(deadline);
  runsEndingBy.sort((a, b) => a - b);
  try {
    return await work();
  } finally {
    runsEndingBy.splice(runsEndingBy.indexOf(deadline), 1);
  }
}

/** When the jobs running now must have ended; Infinity in a worker that keeps running. */
export const jobsDeadline = (): number => runsEndingBy.at(-1) ?? Infinity;
