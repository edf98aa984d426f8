import { DAY_MS } from "./calendar-date";

/** Expiration choices offered when a key is created, counted from creation. */
export const EXPIRATION_OPTIONS = ["never", "30d", "90d", "1y"] as const;

export type ExpirationOption = (typeof EXPIRATION_OPTIONS)[number];

const DAYS: Record<Exclude<ExpirationOption, "never">, number> = { "30d": 30, "90d": 90, "1y": 365 };

export function isExpirationOption(value: string): value is ExpirationOption {
  return (EXPIRATION_OPTIONS as readonly string[]).includes(value);
}

export function expiresAtFor(option: ExpirationOption, createdAt: Date): Date | null {
  return option === "never" ? null : new Date(createdAt.getTime() + DAYS[option] * DAY_MS);
}
