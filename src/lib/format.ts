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

/** A day as the public pages show it: "22 Nov 2026", in UTC so every reader sees the same. */
export function formatDate(iso: string): string {
  return new Date(iso).toLocaleDateString("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
}
