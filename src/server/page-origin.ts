import "server-only";
import { headers } from "next/headers";
import { configuredOrigin } from "./public-origin";

/**
 * The origin of the page being rendered, for its canonical and og:url links: the configured one,
 * else the request's Host. A forged Host only changes the links of its own answer, which no shared
 * cache keeps (the public pages are rendered per request and not cacheable).
 */
export async function pageOrigin(): Promise<string> {
  if (configuredOrigin) return configuredOrigin;
  const requestHeaders = await headers();
  const protocol = requestHeaders.get("x-forwarded-proto")?.split(",")[0]?.trim() === "https" ? "https" : "http";
  const candidate = `${protocol}://${requestHeaders.get("host") ?? "localhost"}`;
  return URL.canParse(candidate) ? new URL(candidate).origin : "http://localhost";
}
