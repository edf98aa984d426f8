/** How long a rolled key keeps working beside its replacement (README, API keys). */
export const GRACE_OPTIONS = ["0", "1h", "24h", "7d"] as const;

export type GraceOption = (typeof GRACE_OPTIONS)[number];

export const DEFAULT_GRACE: GraceOption = "24h";

const HOUR_MS = 3_600_000;
const GRACE_MS: Record<GraceOption, number> = { "0": 0, "1h": HOUR_MS, "24h": 24 * HOUR_MS, "7d": 7 * 24 * HOUR_MS };

export function isGraceOption(value: string): value is GraceOption {
  return (GRACE_OPTIONS as readonly string[]).includes(value);
}

export function graceEndFor(option: GraceOption, rolledAt: Date): Date {
  return new Date(rolledAt.getTime() + GRACE_MS[option]);
}
