import "server-only";

/** Headers as Node (IncomingHttpHeaders) or the web (Headers) hold them. */
export type RequestHeaders = Headers | Record<string, string | string[] | undefined>;

/** One header's value, repeated ones joined by commas; undefined when absent. */
export function headerValue(headers: RequestHeaders, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const value = headers[name];
  return Array.isArray(value) ? value.join(",") : value;
}
