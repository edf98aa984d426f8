import { NextResponse, type NextRequest } from "next/server";
import { configuredOrigin } from "~/server/public-origin";
import { cspNonce, NO_STORE, pageContentSecurityPolicy, SECURITY_HEADERS } from "~/server/security-headers";

const isUnder = (pathname: string, prefix: string) => pathname === prefix || pathname.startsWith(`${prefix}/`);

/** The signed-in owner's pages and the secret preview links: their answers are never kept by a cache. */
const isPrivate = (pathname: string) => isUnder(pathname, "/dashboard") || isUnder(pathname, "/preview");

/** A preview (docs/api.md, preview links) is never indexed, and its address (a secret) is never sent as a referrer. */
const PREVIEW_HEADERS = { "X-Robots-Tag": "noindex, nofollow", "Referrer-Policy": "no-referrer" } as const;

/**
 * Runs before Next serves any request (docs/security.md): a fresh CSP nonce per request, set on
 * the request too, where Next finds it and puts it on the page's scripts; the security headers;
 * no-store on private answers; and, under /dashboard, the path the owner asked for
 * (`x-dashboard-path`, never the client's own value), where sign-in sends them back.
 */
export function proxy(request: NextRequest): NextResponse {
  const policy = pageContentSecurityPolicy(cspNonce(), configuredOrigin);
  const { pathname, search } = request.nextUrl;
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("Content-Security-Policy", policy);
  if (isUnder(pathname, "/dashboard")) requestHeaders.set("x-dashboard-path", pathname + search);
  else requestHeaders.delete("x-dashboard-path");

  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("Content-Security-Policy", policy);
  const headers = { ...SECURITY_HEADERS, ...(isPrivate(pathname) && NO_STORE), ...(isUnder(pathname, "/preview") && PREVIEW_HEADERS) };
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

export const config = {
  // /api/v1, /api/trpc and /api/auth set their own headers: /api/v1's handler also serves it
  // without Next, and a proxy makes Next buffer the request body (up to 10 MB) before /api/trpc's
  // 2 MiB cap or /api/auth's 64 KiB one could refuse it. Static files are immutable build output.
  matcher: ["/((?!api/v1|api/trpc|api/auth|_next/static|_next/image|favicon.ico).*)"],
};
