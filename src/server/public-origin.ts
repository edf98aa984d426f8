import "server-only";
import { env } from "~/env";

/**
 * The app's public origin as configured (BETTER_AUTH_URL), never taken from a request: a forged
 * Host or X-Forwarded-Host, kept by a shared cache, must not send clients and their keys elsewhere.
 */
export const configuredOrigin: string | undefined = env.BETTER_AUTH_URL && new URL(env.BETTER_AUTH_URL).origin;

/** Where clients reach /api/v1: under the configured origin, else relative to the page or document that names it. */
export const publicApiBaseUrl = `${configuredOrigin ?? ""}/api/v1`;
