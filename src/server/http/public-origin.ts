import "server-only";
import { env } from "~/env";

/**
 * The app's public origin as configured, never taken from a request: BETTER_AUTH_URL, else on
 * Vercel the project's production domain. A forged Host or X-Forwarded-Host, kept by a shared
 * cache, must not send clients and their keys elsewhere (docs/security.md, The app's origin).
 */
export const configuredOrigin: string | undefined = env.BETTER_AUTH_URL
  ? new URL(env.BETTER_AUTH_URL).origin
  : env.VERCEL === "1" && env.VERCEL_PROJECT_PRODUCTION_URL
    ? new URL(`https://${env.VERCEL_PROJECT_PRODUCTION_URL}`).origin
    : undefined;

/** Where clients reach /api/v1: under the configured origin, else relative to the page or document that names it. */
export const publicApiBaseUrl = `${configuredOrigin ?? ""}/api/v1`;

/**
 * The origin a request reached the app at: the configured one, else its Host with the scheme the
 * connection had (https only when a trusted proxy, TRUSTED_PROXY_HOPS, says so). X-Forwarded-Host
 * is never read. Without a configured origin, a forged Host only concerns its sender's own
 * request: a browser always sends the real one.
 */
export function requestOrigin(headers: Pick<Headers, "get">): string {
  if (configuredOrigin) return configuredOrigin;
  const forwardedProto = env.TRUSTED_PROXY_HOPS > 0 ? headers.get("x-forwarded-proto")?.split(",").at(-1)?.trim() : undefined;
  const candidate = `${forwardedProto === "https" ? "https" : "http"}://${headers.get("host") ?? "localhost"}`;
  return URL.canParse(candidate) ? new URL(candidate).origin : "http://localhost";
}
