import "server-only";
import type { IncomingMessage, ServerResponse } from "node:http";
import { contentTypeOf, formatOfFile } from "~/shared/images";
import { headerNamesTag, namesEntityTagsOnly } from "../http/entity-tags";
import { readImageFile } from "../images/store";
import { log } from "../runtime/log";
import { getSqlPool } from "../db";
import { findPublicOwner } from "../blogs/public-blogs";
import { isReaderView, referrerHost } from "../views/reader-views";
import { viewBatcher } from "../views/view-batch";
import { requestOrigin } from "../http/public-origin";
import { findPublicationByDomain, type DomainPublication } from "../publication/domains";
import { findImportedPermalink } from "../imports/permalinks";
import { headerValue } from "../http/request-headers";
import { SECURITY_HEADERS } from "../http/security-headers";
import type { CacheResult, PublicAnswer } from "./cache";
import { ownerNotFoundPage, previewPage, publicAnswer, type CachedRoute, type PublicSite } from "./answers";
import { pathUnderHome, publicationHome } from "./home";
import { renderBadFormPage, renderNotFoundPage, renderSearchTooLongPage } from "./pages";
import { READER_CSS_SOURCE } from "./reader-style";
import { parsePublicRoute, type PublicRoute } from "./routes";
import { readFormBody, readSubscribeForm } from "./subscribe-form";
import { confirmationAnswer, subscribeFromForm, unsubscribeAnswer } from "./subscriptions";

/**
 * The public site over HTTP (docs/public-blog.md), with no framework: the production server
 * (src/server/http/server.ts) calls it before Next, and on Vercel and under `next dev` Next's
 * fallback route (src/pages/api/public.ts). GET and HEAD; the cached answer or a 304
 * (If-None-Match, else If-Modified-Since), compressed as the client accepts, or a moved blog's 301;
 * and how the cache had it in X-Cache (./cache.ts: HIT, REVALIDATED, MISS or STALE). POST only to
 * the subscribe form's address and to the unsubscribe link.
 */

/**
 * Browsers revalidate every time (an ETag makes that a 304); a CDN keeps an answer 30 s and may
 * serve it 30 s more while it revalidates, so a change it is not told about shows within 60 s
 * (docs/public-blog.md, The cache; writes through the app purge it, ./forget.ts).
 */
export const PUBLIC_CACHE_CONTROL = "public, max-age=0, s-maxage=30, stale-while-revalidate=30";

/**
 * Pages: no script at all, the inline stylesheets by their hashes (the reader's, and a
 * publication's accent, which its answer names), images from anywhere over https
 * (Markdown links them); connections to the site itself only (crawlers' tools, such as
 * Lighthouse, fetch robots.txt from the page); forms sent to the site itself only (the search
 * box, the subscribe form; 'self' is whatever host served the page, a custom domain too).
 */
const pageCsp = (styleSources: string[] = []) =>
  `default-src 'none'; style-src ${[READER_CSS_SOURCE, ...styleSources].join(" ")}; img-src 'self' https: data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'`;
const PAGE_CSP = pageCsp();
/** Feeds, sitemaps, robots.txt, images: nothing in them loads or runs. */
const DOCUMENT_CSP = "default-src 'none'; frame-ancestors 'none'";
/** Image files: immutable (src/shared/images.ts names them), kept by browsers and CDNs for a year. */
const IMAGE_CACHE_CONTROL = "public, max-age=31536000, immutable";
const IMAGE_CSP = "default-src 'none'; sandbox";
/** A preview is never indexed, and its address (a secret) is never sent as a referrer. */
const PREVIEW_HEADERS = { "X-Robots-Tag": "noindex, nofollow", "Referrer-Policy": "no-referrer" } as const;

interface PublicRequest {
  method: string;
  /** The request's body, read only by the subscribe form's and the unsubscribe link's POST. */
  body: AsyncIterable<Buffer>;
  header(name: string): string | undefined;
  /** The app's origin for this request (src/server/http/public-origin.ts), or the custom domain's it reached. */
  site: PublicSite;
  /** The request's query ("" or "?..."), kept by redirects. */
  search: string;
}

/** What an answer shows. */
interface Shown {
  /** The account whose content it is, for a CDN's cache tags and readers' views; null for site-wide or uncached answers. */
  ownerId: string | null;
  /** The post a page shows, for its views. */
  blogId: string | null;
}
const NOTHING_SHOWN: Shown = { ownerId: null, blogId: null };

interface PublicResponse {
  status: number;
  headers: Record<string, string>;
  /** Null for HEAD and 304. */
  body: Buffer | null;
  shown: Shown;
}

function respond(request: Pick<PublicRequest, "method">, status: number, headers: Record<string, string>, body: Buffer | null, shown = NOTHING_SHOWN): PublicResponse {
  const all = { ...SECURITY_HEADERS, ...headers };
  if (body !== null) all["Content-Length"] = String(body.length);
  return { status, headers: all, body: request.method === "HEAD" ? null : body, shown };
}

/**
 * The routes whose pages are a reader's views (docs/public-blog.md, Views): not feeds, sitemaps,
 * images, share images or previews.
 */
const READER_PAGES: ReadonlySet<PublicRoute["kind"]> = new Set(["index", "post", "search", "author"]);

const html = (text: string) => Buffer.from(text);
let notFoundPage: Buffer | undefined;

function notFound(request: PublicRequest): PublicResponse {
  notFoundPage ??= html(renderNotFoundPage());
  return respond(request, 404, { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store", "Content-Security-Policy": PAGE_CSP }, notFoundPage);
}

/** The 404 of an address of the public site: its publication's under a known handle's page address, else the plain one. */
async function routeNotFound(request: PublicRequest, route: CachedRoute): Promise<PublicResponse> {
  const page = await ownerNotFoundPage(route, request.site);
  if (page === null) return notFound(request);
  return respond(request, 404, { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store", "Content-Security-Policy": pageCsp(page.styleSources) }, html(page.html));
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
  const shown = { ownerId, blogId: answer.blogId ?? null };
  const headers: Record<string, string> = {
    "X-Cache": cache,
    "Cache-Control": PUBLIC_CACHE_CONTROL,
    ETag: answer.etag,
    "Last-Modified": answer.lastModified.toUTCString(),
    "Content-Security-Policy": answer.contentType.startsWith("text/html") ? pageCsp(answer.styleSources) : DOCUMENT_CSP,
  };
  // A moved blog's old address: always the redirect (a 304 would leave a client on an address that moved).
  if (answer.location) return respond(request, 301, { ...headers, Location: answer.location + request.search, "Content-Type": answer.contentType }, answer.body, shown);
  if (answer.gzip) headers.Vary = "Accept-Encoding";
  if (isNotModified(request, answer)) return respond(request, 304, headers, null, shown);
  headers["Content-Type"] = answer.contentType;
  const acceptEncoding = request.header("accept-encoding");
  if (answer.br && accepts(acceptEncoding, "br")) return respond(request, 200, { ...headers, "Content-Encoding": "br" }, answer.br, shown);
  if (answer.gzip && accepts(acceptEncoding, "gzip")) return respond(request, 200, { ...headers, "Content-Encoding": "gzip" }, answer.gzip, shown);
  return respond(request, 200, headers, answer.body, shown);
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
 * cacheable answer shows before it is sent (Vercel's CDN cache tags); `waitUntil` is handed the
 * write of a reader's view, which a serverless host must let finish after the answer (the
 * production server flushes at shutdown).
 */
export async function handlePublicRequest(
  req: IncomingMessage,
  res: ServerResponse,
  {
    url = req.url ?? "/",
    unclaimed = false,
    onAnswer,
    waitUntil,
  }: { url?: string; unclaimed?: boolean; onAnswer?: (ownerId: string | null) => Promise<void>; waitUntil?: (work: Promise<void>) => void } = {},
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
  const request = { method: req.method ?? "GET", body: req, header, site, search };
  let served = await answerRoute(request, pathname, route);
  // An address that is no page may be an imported post's old permalink (docs/migrating.md, How an import runs).
  if (served.status === 404) served = (await importedPermalinkAnswer(request, pathname, domain)) ?? served;
  if (served.status === 200 || served.status === 301 || served.status === 304) await onAnswer?.(served.shown.ownerId);
  send(res, served);
  const { ownerId, blogId } = served.shown;
  if (route !== "notFound" && READER_PAGES.has(route.kind) && ownerId !== null && isReaderView(request.method, served.status, header("user-agent"))) {
    // Counted in memory, written in a batch: no database work on the page's path.
    const view = { accountId: ownerId, blogId, referrerHost: referrerHost(header("referer"), site.origin), at: new Date() };
    const written = viewBatcher(getSqlPool).record(view);
    waitUntil?.(written);
  }
  return true;
}

/** 301 to the post an imported old permalink now is, on the same site (its handle's, or the custom domain); null when it is none. */
async function importedPermalinkAnswer(request: PublicRequest, pathname: string, domain: DomainPublication | null): Promise<PublicResponse | null> {
  const found = await findImportedPermalink(getSqlPool(), pathname, domain).catch((error: unknown) => {
    log.error({ err: error, path: pathname }, "imported permalink lookup failed");
    return null;
  });
  if (!found) return null;
  const location = pathUnderHome(publicationHome(request.site.origin, found.handle, request.site.onDomain), `/${found.blogSlug}`);
  return respond(request, 301, { Location: location, "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" }, Buffer.from(`Moved to ${location}\n`));
}

function send(res: ServerResponse, served: PublicResponse): true {
  res.writeHead(served.status, served.headers);
  res.end(served.body);
  return true;
}

/**
 * The least time the subscribe form's post takes: a new address is locked, counted and written,
 * and may be emailed; a known one is only read. A floor above either makes them alike by timing
 * too (docs/security.md, The subscribe form).
 */
const SUBSCRIBE_ANSWER_MS = 300;

/**
 * The subscribe form's post (docs/public-blog.md, Subscribe form): 303 to the form's page for any
 * valid address, whatever becomes of it (./subscriptions.ts), so the answer says nothing of it; a
 * 400 page for a body that is not one.
 */
async function subscribe(request: PublicRequest, handle: string): Promise<PublicResponse> {
  const startedAt = Date.now();
  const owner = await findPublicOwner(getSqlPool(), handle);
  if (!owner) return notFound(request);
  const home = pathUnderHome(publicationHome(request.site.origin, owner.handle, request.site.onDomain));
  const form = await readSubscribeForm({ contentType: request.header("content-type"), contentLength: request.header("content-length") }, request.body);
  if ("problem" in form) {
    return respond(request, 400, { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store", "Content-Security-Policy": PAGE_CSP }, html(renderBadFormPage(form.problem, home)));
  }
  await subscribeFromForm(request.site, owner, form.email);
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, SUBSCRIBE_ANSWER_MS - (Date.now() - startedAt))));
  const location = `${home === "/" ? "" : home}/subscribe`;
  return respond(request, 303, { Location: location, "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" }, Buffer.from(`See ${location}\n`));
}

/**
 * A subscriber's link (docs/newsletters.md, Subscribing), never cached: the confirmation link
 * (GET confirms; HEAD only tells), or the unsubscribe link (GET shows, POST unsubscribes: a
 * reader's button or a mail provider's RFC 8058 one-click, whose body is read no further than a
 * form's and not otherwise, the token in the address being the secret).
 */
async function subscriberLink(request: PublicRequest, route: Extract<PublicRoute, { kind: "subscribeConfirm" | "unsubscribe" }>): Promise<PublicResponse> {
  if (request.method === "POST" && (await readFormBody({ contentLength: request.header("content-length") }, request.body)) === "too large") {
    return respond(request, 413, { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" }, Buffer.from("Request body too large"));
  }
  const answer =
    route.kind === "subscribeConfirm"
      ? await confirmationAnswer(request.site, route.handle, route.token, { write: request.method === "GET" })
      : await unsubscribeAnswer(request.site, route.handle, route.token, { unsubscribeNow: request.method === "POST" });
  if (!answer) return notFound(request);
  const headers = { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store", "Content-Security-Policy": pageCsp(answer.page.styleSources), "Referrer-Policy": "no-referrer" };
  return respond(request, answer.status, headers, html(answer.page.html));
}

/** The methods an address allows: GET and HEAD, and POST to the subscribe form and the unsubscribe link. */
const allowedMethods = (route: PublicRoute | "notFound") => (route !== "notFound" && (route.kind === "subscribe" || route.kind === "unsubscribe") ? ["GET", "HEAD", "POST"] : ["GET", "HEAD"]);

const unavailable = (request: Pick<PublicRequest, "method">) =>
  respond(request, 503, { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", "Retry-After": "5" }, Buffer.from("Service unavailable, try again shortly"));

async function answerRoute(request: PublicRequest, pathname: string, route: PublicRoute | "notFound"): Promise<PublicResponse> {
  const allowed = allowedMethods(route);
  if (!allowed.includes(request.method)) {
    return respond(request, 405, { Allow: allowed.join(", "), "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" }, Buffer.from("Method not allowed"));
  }
  try {
    if (route === "notFound") return notFound(request);
    if (route.kind === "subscribe" && request.method === "POST") return await subscribe(request, route.handle);
    if (route.kind === "subscribeConfirm" || route.kind === "unsubscribe") return await subscriberLink(request, route);
    if (route.kind === "imageFile") return await imageFile(request, route);
    if (route.kind === "search" && route.tooLong) {
      return respond(request, 400, { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store", "Content-Security-Policy": PAGE_CSP }, html(renderSearchTooLongPage(`/${route.handle}`)));
    }
    if (route.kind === "preview") {
      const page = await previewPage(route.token, request.site.origin);
      if (page === null) return notFound(request);
      const csp = pageCsp(page.styleSources);
      return respond(request, 200, { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store", "Content-Security-Policy": csp, ...PREVIEW_HEADERS }, html(page.html));
    }
    const found = await publicAnswer(route, request.site, pathname);
    return found ? answered(request, found) : await routeNotFound(request, route);
  } catch (error) {
    log.error({ err: error, path: pathname }, "public page failed");
    return unavailable(request);
  }
}
