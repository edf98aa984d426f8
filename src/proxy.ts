import { NextResponse, type NextRequest } from "next/server";
import { configuredOrigin, isVerifiedDomainHost, parsePublicRoute, PUBLIC_URL_HEADER, cspNonce, NO_STORE, pageContentSecurityPolicy, SECURITY_HEADERS } from "@blogmgr/server";

const isUnder = (pathname: string, prefix: string) => pathname === prefix || pathname.startsWith(`${prefix}/`);


/**
 * Runs before Next serves any request (docs/security.md): the address asked for, for the public
 * site, which sets its own headers (on a publication's verified custom domain, every address but
 * the matcher's exclusions: docs/public-blog.md, Custom domains); for the app's pages a fresh CSP nonce per request, set on the
 * request too, where Next finds it and puts it on the page's scripts; the security headers;
 * no-store on the dashboard; and, under /dashboard, the path the owner asked for
 * (`x-dashboard-path`, never the client's own value), where sign-in sends them back.
 */
export async function proxy(request: NextRequest): Promise<NextResponse> {
  const { pathname, search } = request.nextUrl;
  const requestHeaders = new Headers(request.headers);
  // The address asked for, for the public site's route, where an unclaimed address is rewritten (src/pages/api/public.ts).
  requestHeaders.set(PUBLIC_URL_HEADER, pathname + search);
  // No lookup on the app's own hosts; a custom domain's pages are all the public site's, / too.
  if (await isVerifiedDomainHost(request.headers.get("host"))) return NextResponse.rewrite(new URL("/api/public", request.url), { request: { headers: requestHeaders } });
  // The public site sets its own headers, with a CSP that needs no nonce (src/server/public-site/handler.ts).
  if (parsePublicRoute(pathname, request.nextUrl.searchParams) !== null) return NextResponse.next({ request: { headers: requestHeaders } });
  const policy = pageContentSecurityPolicy(cspNonce(), configuredOrigin);
  requestHeaders.set("Content-Security-Policy", policy);
  if (isUnder(pathname, "/dashboard")) requestHeaders.set("x-dashboard-path", pathname + search);
  else requestHeaders.delete("x-dashboard-path");

  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("Content-Security-Policy", policy);
  // The signed-in owner's pages, and an invitation's (src/app/invitations), are never kept by a cache.
  const headers = { ...SECURITY_HEADERS, ...((isUnder(pathname, "/dashboard") || isUnder(pathname, "/invitations")) && NO_STORE) };
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

export const config = {
  // /api/v1, /api/trpc and /api/auth set their own headers: /api/v1's handler also serves it
  // without Next, and a proxy makes Next buffer the request body (up to 10 MB) before /api/trpc's
  // 2 MiB cap or /api/auth's 64 KiB one could refuse it. Static files are immutable build output.
  // Each is skipped as a whole segment: any other address may reach the public site's route, which
  // must get x-public-url from here, never from the client (docs/security.md, Header trust).
  matcher: ["/((?!(?:api/v1|api/trpc|api/auth|_next/image|favicon\\.ico)(?:/|$)|_next/static/).*)"],
};
