import "server-only";
/**
 * The security headers of every response (docs/security.md): one list, applied by the proxy
 * (src/proxy.ts) to what Next serves and by the REST handler to /api/v1, which the production
 * server hands over before Next. Also /api/v1's cross-origin and caching fields, which the
 * benchmark's baseline (bench/baseline.ts) sends as well.
 */
import { randomBytes } from "node:crypto";

const production = process.env.NODE_ENV === "production";
const development = process.env.NODE_ENV === "development";

/** On every response, pages and API alike. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
  // For browsers that predate CSP's frame-ancestors.
  "X-Frame-Options": "DENY",
  "Cross-Origin-Opener-Policy": "same-origin",
  // Browsers honour it over https only; `npm run dev` on http://localhost must not pin https.
  ...(production && { "Strict-Transport-Security": "max-age=31536000; includeSubDomains" }),
};

/** Answers a signed-in owner or a key holder gets are theirs alone: no cache keeps them. */
export const NO_STORE = { "Cache-Control": "no-store" } as const;

/** /api/v1 and /api/trpc answer JSON only: nothing in it may load, run or be framed. */
export const API_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  ...SECURITY_HEADERS,
  ...NO_STORE,
  "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'",
};

/** /api/v1 is called by programs from any origin, with a key and no cookies; they may read these headers. */
export const API_CORS_HEADERS: Readonly<Record<string, string>> = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Expose-Headers":
    "X-Request-Id, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, X-RateLimit-Used, RateLimit-Policy, RateLimit, Retry-After, Idempotent-Replayed, ETag",
};

/** /api/v1's GET answers with an ETag: kept only by the client (never a shared cache), and always revalidated. */
export const CACHE_CONTROL_REVALIDATED = "private, no-cache";

/** A fresh nonce for one page: Next puts it on its scripts when it finds it in the request's CSP. */
export function cspNonce(): string {
  return randomBytes(18).toString("base64");
}

/**
 * The pages' policy: scripts only with this request's nonce (and what they load, 'strict-dynamic'),
 * so injected markup cannot run. Styles may be inline: the API reference (Scalar) injects its own
 * and React sets style attributes. Images may come from any https host: public blogs' Markdown
 * links them. `connectOrigin` is the configured public origin, which the API reference's "Try it"
 * calls when the page was opened under another one.
 */
export function pageContentSecurityPolicy(nonce: string, connectOrigin?: string): string {
  return [
    "default-src 'self'",
    // Development builds of React evaluate code to rebuild server error stacks.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${development ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    "font-src 'self' data:",
    `connect-src 'self'${connectOrigin ? ` ${connectOrigin}` : ""}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}
