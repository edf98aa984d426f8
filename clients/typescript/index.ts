import createClient, { type ClientOptions } from "openapi-fetch";
import type { paths } from "./schema.js";

export type { components, operations, paths } from "./schema.js";

/**
 * A typed client of the Blog Management API (docs/typescript-client.md): every path, parameter, body
 * and answer as the OpenAPI document states them. `origin` is the app's origin; the key goes in x-api-key.
 */
export function createBlogClient({ origin, apiKey, ...options }: { origin: string; apiKey: string } & Omit<ClientOptions, "baseUrl">) {
  return createClient<paths>({ ...options, baseUrl: new URL("/api/v1", origin).href, headers: { ...options.headers, "x-api-key": apiKey } });
}
