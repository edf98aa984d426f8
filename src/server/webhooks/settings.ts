import "server-only";
import { env } from "~/env";

const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** "5s,5m,2h" → [5000, 300000, 7200000]: the wait before each retry, in order. */
export function parseRetrySchedule(text: string): number[] {
  return text.split(",").map((part) => {
    const match = /^\s*(\d+)\s*(ms|s|m|h|d)\s*$/.exec(part);
    if (!match) throw new Error(`WEBHOOK_RETRY_SCHEDULE: "${part}" is not a duration such as 5s, 5m, 2h`);
    return Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
  });
}

export const webhookSettings = {
  retryScheduleMs: parseRetrySchedule(env.WEBHOOK_RETRY_SCHEDULE),
  endpointConcurrency: env.WEBHOOK_ENDPOINT_CONCURRENCY,
  allowPrivateUrls: env.WEBHOOK_ALLOW_PRIVATE_URLS === "1",
  requireHttps: env.NODE_ENV === "production" && env.WEBHOOK_ALLOW_PRIVATE_URLS !== "1",
  /** A private URL's refusal names WEBHOOK_ALLOW_PRIVATE_URLS (url-safety.ts). */
  namePrivateUrlSetting: env.NODE_ENV === "development",
  timeoutMs: 10_000,
  /** The first bytes of a response body kept with an attempt. */
  responseBodyBytes: 2_048,
  /** An endpoint failing without a success for this long is disabled. */
  disableAfterFailingMs: 5 * 86_400_000,
  retentionMs: 30 * 86_400_000,
  /** api_key.expiring is sent this long before a key expires. */
  expiringNoticeMs: 7 * 86_400_000,
};
