import "server-only";
/** The window of the API's budgets: the UTC clock hour. */
export const HOUR_SECONDS = 3_600;

/**
 * Unix ms at which the fixed window of `seconds` holding `now` ends. Windows are aligned to the
 * Unix epoch, as @upstash/ratelimit's fixed windows are; Unix time counts no leap seconds, so
 * hourly windows are exactly the UTC hours.
 */
export function endOfWindow(now: number, seconds: number): number {
  const ms = seconds * 1000;
  return (Math.floor(now / ms) + 1) * ms;
}
