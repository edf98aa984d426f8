import "server-only";
/** Where an owner goes after signing in when no (acceptable) page was asked for. */
export const DEFAULT_NEXT_PATH = "/dashboard";

const DASHBOARD = "/dashboard";
/** An invitation's page (src/app/invitations/[id]/page.tsx): signed out, the invited person signs in or up, then joins. */
const INVITATIONS = "/invitations/";
/** Stands for the app's own origin: only paths that stay on it are accepted. */
const OWN_ORIGIN = "https://app.invalid";
const MAX_LENGTH = 2_000;
// A backslash reads as a slash to browsers (`/\evil.example` is `//evil.example`); tabs and line
// breaks are dropped by URL parsers (`/%09/evil.example`). Neither belongs in a dashboard path.
const FORBIDDEN = /[\\\u0000-\u001f\u007f]/;

/**
 * The page to return to after sign-in: `next` when it is a path of the dashboard (or an
 * invitation's page) on this origin,
 * in the normalized form that was checked; otherwise the dashboard's home. An open redirect must
 * not pass through sign-in (docs/security.md).
 */
export function safeNextPath(next: string | null | undefined): string {
  if (!next || next.length > MAX_LENGTH || !next.startsWith("/") || next.startsWith("//")) return DEFAULT_NEXT_PATH;
  if (anyDecodingHas(next, FORBIDDEN)) return DEFAULT_NEXT_PATH;
  const url = new URL(next, OWN_ORIGIN);
  if (url.origin !== OWN_ORIGIN) return DEFAULT_NEXT_PATH;
  if (url.pathname !== DASHBOARD && !url.pathname.startsWith(`${DASHBOARD}/`) && !url.pathname.startsWith(INVITATIONS)) return DEFAULT_NEXT_PATH;
  return url.pathname + url.search + url.hash;
}

/** Whether `value`, or what it becomes after percent-decoding it (again and again), matches `pattern`. */
function anyDecodingHas(value: string, pattern: RegExp): boolean {
  let current = value;
  for (let round = 0; round < 4; round++) {
    if (pattern.test(current)) return true;
    let decoded: string;
    try {
      decoded = decodeURIComponent(current);
    } catch {
      return true; // malformed escapes: not a path we produced
    }
    if (decoded === current) return false;
    current = decoded;
  }
  return true; // encoded more deeply than any link of ours
}
