/**
 * A rule's message as the pages show it, a sentence: "the handle x is reserved" reads "The handle x
 * is reserved." (the API and the CLI keep the lower-case form, which names the field first).
 */
export function asSentence(message: string): string {
  const capitalized = message.charAt(0).toUpperCase() + message.slice(1);
  return /[.!?]$/.test(capitalized) ? capitalized : `${capitalized}.`;
}

/** Dates as the dashboard shows them: "22 Nov 2026", in UTC so server and browser agree. */
export function formatDate(iso: string | null): string {
  if (!iso) return "—";
  return new Date(iso).toLocaleDateString("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
}

export function formatDateTime(iso: string | null): string {
  if (!iso) return "—";
  return new Date(iso).toLocaleString("en-GB", {
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZone: "UTC",
    timeZoneName: "short",
  });
}
