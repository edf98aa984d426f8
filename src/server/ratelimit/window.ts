const HOUR_MS = 3_600_000;

/** Unix ms at which the UTC clock hour holding `now` ends, i.e. when an hourly window resets. */
export function endOfUtcHour(now: number): number {
  // Unix time counts no leap seconds, so multiples of an hour are exactly the UTC hour boundaries.
  return (Math.floor(now / HOUR_MS) + 1) * HOUR_MS;
}
