/**
 * A rule's message as the pages show it, a sentence: "the handle x is reserved" reads "The handle x
 * is reserved." (the API and the CLI keep the lower-case form, which names the field first).
 */
export function asSentence(message: string): string {
  const capitalized = message.charAt(0).toUpperCase() + message.slice(1);
  return /[.!?]$/.test(capitalized) ? capitalized : `${capitalized}.`;
}

/**
 * The one way a moment is written: "26 Nov 2026, 14:05" (with seconds, "14:05:07", where entries
 * of a list could otherwise read alike), in `timeZone`, the runtime's own when absent: in the
 * dashboard, the owner's browser (LocalTime, src/components/ui/local-time.tsx).
 */
export function formatMoment(iso: string, { seconds = false, timeZone }: { seconds?: boolean; timeZone?: string } = {}): string {
  return new Date(iso).toLocaleString("en-GB", {
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    ...(seconds && { second: "2-digit" }),
    hourCycle: "h23",
    timeZone,
  });
}

/** Its time of day alone, as formatMoment writes it: "14:05", in the runtime's time zone. */
export function formatTimeOfDay(at: Date): string {
  return at.toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
}

/** A day spelled out for a sentence: "Thursday 3 December 2026", in the runtime's time zone. */
export function formatLongDay(at: Date): string {
  return at.toLocaleDateString("en-GB", { weekday: "long", day: "numeric", month: "long", year: "numeric" });
}

/** A moment in UTC, saying so: "26 Nov 2026, 14:05 UTC", the same on server and browser (the public pages). */
export function formatDateTime(iso: string, options: { seconds?: boolean } = {}): string {
  return `${formatMoment(iso, { ...options, timeZone: "UTC" })} UTC`;
}

/** Where and how the public pages write dates: their publication's time zone and language (docs/publication.md). */
export interface DateStyle {
  timeZone: string;
  locale: string;
}

/** A day as the public pages show it: "22 Nov 2026" (in English), the day it is in the publication's time zone, in its language. */
export function formatDate(iso: string, { timeZone, locale }: DateStyle): string {
  return new Date(iso).toLocaleDateString(locale, { day: "numeric", month: "short", year: "numeric", timeZone });
}

/** A moment as the public pages show it, naming its zone: "26 Nov 2026, 14:05 UTC" (in English), in the publication's time zone and language. */
export function formatPublicMoment(iso: string, { timeZone, locale }: DateStyle): string {
  return new Date(iso).toLocaleString(locale, { day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit", timeZone, timeZoneName: "short" });
}

/** "1 subscriber", "1,300 subscribers". */
export function formatSubscriberCount(n: number): string {
  return `${n.toLocaleString("en")} subscriber${n === 1 ? "" : "s"}`;
}

/** A newsletter's progress as the editor shows it: "Sent to 1,234 of 1,300 · 2 failed" (no failures, no "failed"). */
export function formatNewsletterProgress({ sent, total, failed }: { sent: number; total: number; failed: number }): string {
  return `Sent to ${sent.toLocaleString("en")} of ${total.toLocaleString("en")}${failed > 0 ? ` · ${failed.toLocaleString("en")} failed` : ""}`;
}
