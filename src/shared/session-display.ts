/** How the account page shows a session (src/components/dashboard/session-settings.tsx). */

/**
 * A device as the account page names a session: the browser and the operating system read from
 * its User-Agent ("Firefox on Windows"), or "Unknown device". Only the common ones: the name helps
 * an owner recognise their own sessions, it proves nothing.
 */

// Order matters: Edge and Opera also say Chrome, Chrome also says Safari, iPadOS may say Mac OS.
const BROWSERS: [RegExp, string][] = [
  [/Edg(e|A|iOS)?\//, "Edge"],
  [/OPR\/|Opera/, "Opera"],
  [/SamsungBrowser\//, "Samsung Internet"],
  [/Firefox\/|FxiOS\//, "Firefox"],
  [/Chrome\/|CriOS\/|Chromium\//, "Chrome"],
  [/Safari\//, "Safari"],
];

const SYSTEMS: [RegExp, string][] = [
  [/iPhone|iPod/, "iOS"],
  [/iPad/, "iPadOS"],
  [/Android/, "Android"],
  [/CrOS/, "ChromeOS"],
  [/Windows/, "Windows"],
  [/Mac OS X|Macintosh/, "macOS"],
  [/Linux/, "Linux"],
];

export function deviceName(userAgent: string | null | undefined): string {
  if (!userAgent) return "Unknown device";
  const browser = BROWSERS.find(([pattern]) => pattern.test(userAgent))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? "Unknown device";
}

/**
 * A session's client address as stored: better-auth keeps an IPv6 client by its /64 network,
 * written out in full ("2001:0db8:0000:0000:0000:0000:0000:0000"), which is shown compressed and
 * as a network ("2001:db8::/64"). IPv4 as it is.
 */
export function shownAddress(address: string): string {
  if (!address.includes(":") || !URL.canParse(`http://[${address}]`)) return address;
  const compressed = new URL(`http://[${address}]`).hostname.slice(1, -1);
  const hostPart = address.split(":").slice(4);
  return hostPart.length === 4 && hostPart.every((group) => /^0+$/.test(group)) ? `${compressed}/64` : compressed;
}
