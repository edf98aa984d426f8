/** How long a preview link opens (docs/api.md, preview links): the owner picks; 7 days unless they do. */
export const PREVIEW_LIFETIMES = {
  "1h": { label: "1 hour", ms: 3_600_000 },
  "1d": { label: "1 day", ms: 86_400_000 },
  "7d": { label: "7 days", ms: 7 * 86_400_000 },
  "30d": { label: "30 days", ms: 30 * 86_400_000 },
} as const;

export type PreviewLifetime = keyof typeof PREVIEW_LIFETIMES;
export const PREVIEW_LIFETIME_NAMES = Object.keys(PREVIEW_LIFETIMES) as [PreviewLifetime, ...PreviewLifetime[]];
export const DEFAULT_PREVIEW_LIFETIME: PreviewLifetime = "7d";
