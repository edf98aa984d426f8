const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
export const DAY_MS = 24 * 60 * 60 * 1000;

/** Midnight UTC of a `YYYY-MM-DD` calendar date, or null when it is malformed or impossible (2024-02-30). */
export function parseCalendarDate(value: string): Date | null {
  const match = DATE_PATTERN.exec(value);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  const isReal = date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  return isReal ? date : null;
}

export function formatCalendarDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}
