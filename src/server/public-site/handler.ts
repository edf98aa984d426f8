import "server-only";
import type { IncomingMessage, ServerResponse } from "node:http";
import { contentTypeOf, formatOfFile } from "~/shared/images";
import { headerNamesTag, namesEntityTagsOnly } from "../http/entity-tags";
import { readImageFile } from "../images/store";
import { log } from "../runtime/log";
import { requestOrigin } from "../http/public-origin";
import { getSqlPool } from "../db";
import { findPublicationByDomain } from "../publication/domains";
import { headerValue } from "../http/request-headers";
import { SECURITY_HEADERS } from "../http/security-headers";
import type { CacheResult, PublicAnswer } from "./cache";
import { previewPage, publicAnswer, type PublicSite } from "./answers";
import { renderNotFoundPage } from "./pages";
import { READER_CSS_SOURCE } from "./reader-style";
import { parsePublicRoute, type PublicRoute } from "./routes";

/**
 * The public site over HTTP (docs/public-blog.md), with no framework: the production server
 * (src/server/http/server.ts) calls it before Next, and on Vercel and under `next dev` Next's
 * fallback route (src/pages/api/public.ts). GET and HEAD; the cached answer or a 304
 * (If-None-Match, else If-Modified-Since), compressed as the client accepts, or a moved blog's 301;
 * and how the cache had it in X-Cache (./cache.ts: HIT, REVALIDATED, MISS or STALE).
 */

/**
 * Browsers revalidate every time (an ETag makes that a 304); a CDN keeps an answer 30 s and may
 * serve it 30 s more while it revalidates, so a change it is not told about shows within 60 s
 * (docs/public-blog.md, The cache; writes through the app purge it, ./forget.ts).
 */
export const PUBLIC_CACHE_CONTROL = "public, max-age=0, s-maxage=30, stale-while-revalidate=30";

/**
 * Pages: no script at all, the one inline stylesheet by its hash, images from anywhere over https
 * (Markdown links them); connections to the site itself only (crawlers' tools, such as
 * Lighthouse, fetch robots.txt from the page).
 */
const PAGE_CSP = `default-src 'none'; style-src ${READER_CSS_SOURCE}; img-src 'self' https: data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;
/** Feeds, sitemaps, robots.txt, images: nothing in them loads or runs. */
const DOCUMENT_CSP = "default-src 'none'; frame-ancestors 'none'";
/** Image files: immutable (src/shared/images.ts names them), kept by browsers and CDNs for a year. */
const IMAGE_CACHE_CONTROL = "public, max-age=31536000, immutable";
const IMAGE_CSP = "default-src 'none'; sandbox";
/** A preview is never indexed, and its address (a secret) is never sent as a referrer. */
const PREVIEW_HEADERS = { "X-Robots-Tag": "noindex, nofollow", "Referrer-Policy": "no-referrer" } as const;

interface PublicRequest {
  method: string;
  header(name: string): string | undefined;
  /** The app's origin for this request (src/server/http/public-origin.ts), or the custom domain's it reached. */
  site: PublicSite;
  /** The request's query ("" or "?..."), kept by redirects. */
  search: string;
}

interface PublicResponse {
  status: number;
  headers: Record<string, string>;
  /** Null for HEAD and 304. */
  body: Buffer | null;
  /** The account whose content it shows, for a CDN's cache tags; null for site-wide or uncached answers. */
  ownerId: string | null;
}

function respond(request: Pick<PublicRequest, "method">, status: number, headers: Record<string, string>, body: Buffer | null, ownerId: string | null = null): PublicResponse {
  const all = { ...SECURITY_HEADERS, ...headers };
  if (body !== null) all["Content-Length"] = String(body.length);
  return { status, headers: all, body: request.method === "HEAD" ? null : body, ownerId };
}

const html = (text: string) => Buffer.from(text);
let notFoundPage: Buffer | undefined;

function notFound(request: PublicRequest): PublicResponse {
  notFoundPage ??= html(renderNotFoundPage());
  return respond(request, 404, { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store", "Content-Security-Policy": PAGE_CSP }, notFoundPage);
}

/** Whether the client accepts `coding` (an Accept-Encoding entry without q=0). */
function accepts(acceptEncoding: string | undefined, coding: string): boolean {
  if (!acceptEncoding) return false;
  return acceptEncoding.split(",").some((entry) => {
    const [name, ...parameters] = entry.trim().split(";");
    return name?.trim().toLowerCase() === coding && !parameters.some((parameter) => /^\s*q\s*=\s*0(\.0*)?\s*$/.test(parameter));
  });
}

function isNotModified(request: PublicRequest, answer: PublicAnswer): boolean {
  const ifNoneMatch = request.header("if-none-match");
  // Compared weakly: our tags are weak, the opaque part after `W/` is what must match.
  if (ifNoneMatch !== undefined) return namesEntityTagsOnly(ifNoneMatch) && headerNamesTag(ifNoneMatch, answer.etag.slice(2), "weak");
  const ifModifiedSince = Date.parse(request.header("if-modified-since") ?? "");
  return !Number.isNaN(ifModifiedSince) && answer.lastModified.getTime() <= ifModifiedSince;
}

function answered(request: PublicRequest, { answer, ownerId, cache }: CacheResult): PublicResponse {
  const headers: Record<string, string> = {
    "X-Cache": cache,
    "Cache-Control": PUBLIC_CACHE_CONTROL,
    ETag: answer.etag,
    "Last-Modified": answer.lastModified.toUTCString(),
    "Content-Security-Policy": answer.contentType.startsWith("text/html") ? PAGE_CSP : DOCUMENT_CSP,
  };
  // A moved blog's old address: always the redirect (a 304 would leave a client on an address that moved).
  if (answer.location) return respond(request, 301, { ...headers, Location: answer.location + request.search, "Content-Type": answer.contentType }, answer.body, ownerId);
  if (answer.gzip) headers.Vary = "Accept-Encoding";
  if (isNotModified(request, answer)) return respond(request, 304, headers, null, ownerId);
  headers["Content-Type"] = answer.contentType;
  const acceptEncoding = request.header("accept-encoding");
  if (answer.br && accepts(acceptEncoding, "br")) return respond(request, 200, { ...headers, "Content-Encoding": "br" }, answer.br, ownerId);
  if (answer.gzip && accepts(acceptEncoding, "gzip")) return respond(request, 200, { ...headers, "Content-Encoding": "gzip" }, answer.gzip, ownerId);
  return respond(request, 200, headers, answer.body, ownerId);
}

/**
 * An image's file (docs/images.md). Its name never stands for other bytes (a new upload is a new
 * image), so it is cached for good, and its ETag is its address: a revalidation needs no read. A
 * CSP sandbox and nosniff: opened on its own, the file can only ever be shown as the image it is.
 */
async function imageFile(request: PublicRequest, { imageId, file }: { imageId: string; file: string }): Promise<PublicResponse> {
  const headers = {
    "Cache-Control": IMAGE_CACHE_CONTROL,
    ETag: `"${imageId}-${file}"`,
    "Content-Security-Policy": IMAGE_CSP,
    "Cross-Origin-Resource-Policy": "cross-origin",
  };
  if (headerNamesTag(request.header("if-none-match") ?? "", headers.ETag, "weak")) return respond(request, 304, headers, null);
  const data = await readImageFile(imageId, file);
  if (data === null) return notFound(request);
  return respond(request, 200, { ...headers, "Content-Type": contentTypeOf(formatOfFile(file)!) }, data);
}

/**
 * Answers `req` when `url` (path and query) is one of the public site's addresses, or when
 * `unclaimed` (no other route of the app wants it: then a 404 at worst); returns false, having
 * answered nothing, otherwise. On a verified custom domain (its Host: never X-Forwarded-Host,
 * docs/security.md) every address is the publication's. `onAnswer` learns whose content a
 * cacheable answer shows before it is sent (Vercel's CDN cache tags).
 */
export async function handlePublicRequest(
  req: IncomingMessage,
  res: ServerResponse,
  { url = req.url ?? "/", unclaimed = false, onAnswer }: { url?: string; unclaimed?: boolean; onAnswer?: (ownerId: string | null) => Promise<void> } = {},
): Promise<boolean> {
  // A request target no URL parser accepts is no public address; Next answers it.
  if (!URL.canParse(url, "http://x")) return false;
  const { pathname, searchParams, search } = new URL(url, "http://x");
  const header = (name: string) => headerValue(req.headers, name);
  const domain = await findPublicationByDomain(getSqlPool(), header("host")).catch((error: unknown) => {
    log.error({ err: error }, "custom domain lookup failed");
    return "unavailable" as const;
  });
  if (domain === "unavailable") return send(res, unavailable({ method: req.method ?? "GET" }));
  const route = parsePublicRoute(pathname, searchParams, domain ?? undefined) ?? (unclaimed ? "notFound" : null);
  if (route === null) return false;
  const site = domain ? { origin: `https://${domain.domain}`, onDomain: true } : { origin: requestOrigin({ get: (name) => header(name) ?? null }), onDomain: false };
  const served = await answerRoute({ method: req.method ?? "GET", header, site, search }, pathname, route);
  if (served.status === 200 || served.status === 301 || served.status === 304) await onAnswer?.(served.ownerId);
  return send(res, served);
}

function send(res: ServerResponse, served: PublicResponse): true {
  res.writeHead(served.status, served.headers);
  res.end(served.body);
  return true;
}

const unavailable = (request: Pick<PublicRequest, "method">) =>
  respond(request, 503, { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", "Retry-After": "5" }, Buffer.from("Service unavailable, try again shortly"));

async function answerRoute(request: PublicRequest, pathname: string, route: PublicRoute | "notFound"): Promise<PublicResponse> {
  if (request.method !== "GET" && request.method !== "HEAD") {
    return respond(request, 405, { Allow: "GET, HEAD", "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" }, Buffer.from("Method not allowed"));
  }
  try {
    if (route === "notFound") return notFound(request);
    if (route.kind === "imageFile") return await imageFile(request, route);
    if (route.kind === "preview") {
      const page = await previewPage(route.token, request.site.origin);
      if (page === null) return notFound(request);
      return respond(request, 200, { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store", "Content-Security-Policy": PAGE_CSP, ...PREVIEW_HEADERS }, html(page));
    }
    const found = await publicAnswer(route, request.site, pathname);
    return found ? answered(request, found) : notFound(request);
  } catch (error) {
    log.error({ err: error, path: pathname }, "public page failed");
    return unavailable(request);
  }
}
