import "server-only";
import { MAX_SEARCH_LENGTH, SLUG_PATTERN } from "~/shared/blog-fields";
import { isReservedHandle, isValidHandle } from "~/shared/handle";
import { formatOfFile, parseImageFilePath } from "~/shared/images";
import { TAG_MAX_LENGTH, tagSlug } from "~/shared/tags";

/**
 * The public site's addresses (docs/public-blog.md), as one parse from a request's path and query
 * to what it asks for; null for any other address (the dashboard, the APIs, Next's own files),
 * which the app serves. Knows nothing of HTTP beyond the URL.
 */
export type PublicRoute =
  | { kind: "robots" }
  | { kind: "sitemapIndex" }
  | { kind: "preview"; token: string }
  | { kind: "index"; handle: string; tagSlug?: string; page: number }
  /** An author's page (docs/public-blog.md, Authors): `authorSlug` is the person's handle. */
  | { kind: "author"; handle: string; authorSlug: string; page: number }
  | { kind: "post"; handle: string; blogSlug: string }
  /** `q` trimmed, its white space runs made one space (one cache key per search); `tooLong`: over the API's limit as sent. */
  | { kind: "search"; handle: string; q: string; page: number; tooLong: boolean }
  | { kind: "shareImage"; handle: string; blogSlug: string }
  | { kind: "feed"; handle: string; format: FeedFormat; tagSlug?: string; authorSlug?: string }
  | { kind: "sitemap"; handle: string }
  | { kind: "subscribe"; handle: string }
  /** A subscriber's confirmation link and unsubscribe (and manage) link; `token` as sent, "" without one (docs/newsletters.md). */
  | { kind: "subscribeConfirm"; handle: string; token: string }
  | { kind: "unsubscribe"; handle: string; token: string }
  | { kind: "imageFile"; imageId: string; file: string };

/**
 * The request header in which the proxy (src/proxy.ts) hands the public site's route under Next
 * the address asked for; only the server may set it (docs/security.md, Header trust).
 */
export const PUBLIC_URL_HEADER = "x-public-url";

/** The feeds' files under an owner's, a tag's or an author's page (./feeds.ts writes them). */
export const FEED_FORMATS = {
  rss: { file: "feed.xml", contentType: "application/rss+xml; charset=utf-8" },
  atom: { file: "atom.xml", contentType: "application/atom+xml; charset=utf-8" },
  json: { file: "feed.json", contentType: "application/feed+json; charset=utf-8" },
} as const;
export type FeedFormat = keyof typeof FEED_FORMATS;

/** An owner's search page (docs/public-blog.md, Search): it takes the address a blog slugged `search` would have. */
export const SEARCH_SEGMENT = "search";

/** Authors' pages are under it: `/{handle}/authors/{authorSlug}` (docs/public-blog.md, Authors). */
export const AUTHORS_SEGMENT = "authors";

/** A blog's share image, below its page (docs/public-blog.md, Share images). */
export const SHARE_IMAGE_FILE = "share-image.png";

/** A tag's slug in a public address: what tagSlug makes of it, itself (src/shared/tags.ts). */
export const isTagSlug = (value: string) => value.length > 0 && value.length <= 2 * TAG_MAX_LENGTH && tagSlug(value) === value;

const feedFormatOf = (file: string) => (Object.keys(FEED_FORMATS) as FeedFormat[]).find((format) => FEED_FORMATS[format].file === file);

/** Pages of an index stop at 2,000,000 blogs in: a larger number is no page, rather than a scan that long. */
const MAX_INDEX_PAGE = 100_000;

/** `?page=` of an index: absent is page 1; anything but one whole number from 1 to the maximum (or several) is no page (null). */
function pageNumber(search: URLSearchParams): number | null {
  const values = search.getAll("page");
  if (values.length === 0) return 1;
  if (values.length > 1 || !/^[1-9][0-9]{0,5}$/.test(values[0]!)) return null;
  const page = Number(values[0]);
  return page <= MAX_INDEX_PAGE ? page : null;
}

/** An owner's index, or a tag's page, when `search` names a page of it. */
function indexRoute(handle: string, search: URLSearchParams, tagSlug?: string): PublicRoute | "notFound" {
  const page = pageNumber(search);
  return page === null ? "notFound" : { kind: "index", handle, ...(tagSlug !== undefined && { tagSlug }), page };
}

/** An author's page, when `search` names a page of it. */
function authorRoute(handle: string, authorSlug: string, search: URLSearchParams): PublicRoute | "notFound" {
  const page = pageNumber(search);
  return page === null ? "notFound" : { kind: "author", handle, authorSlug, page };
}

/** An owner's search, when `search` names a page of it; `q` as the API reads it (docs/api.md: at most MAX_SEARCH_LENGTH characters as sent, then trimmed). */
function searchRoute(handle: string, search: URLSearchParams): PublicRoute | "notFound" {
  const page = pageNumber(search);
  const sent = search.get("q") ?? "";
  return page === null ? "notFound" : { kind: "search", handle, q: sent.trim().replace(/\s+/g, " "), page, tooLong: sent.length > MAX_SEARCH_LENGTH };
}

/**
 * What `pathname` (with `search`) asks of the public site, or null when it is not one of its
 * addresses. An owner's addresses start with a valid, unreserved handle; their segments below
 * must be well-formed (a slug, a tag's slug, a feed's file) or the address is still the public
 * site's but names nothing (`notFound`). On a publication's custom domain (`domain`: whose it
 * is), its addresses are at the root and every address is the public site's
 * (docs/public-blog.md, Custom domains).
 */
export function parsePublicRoute(pathname: string, search: URLSearchParams, domain?: { handle: string }): PublicRoute | "notFound" | null {
  if (domain) return parseDomainRoute(pathname, search, domain.handle);
  // Next answers a trailing slash with a redirect to the address without it.
  if (pathname.length > 1 && pathname.endsWith("/")) return null;
  if (pathname === "/robots.txt") return { kind: "robots" };
  if (pathname === "/sitemap.xml") return { kind: "sitemapIndex" };
  const segments = pathname.split("/").slice(1);
  if (segments[0] === "images") return imageRoute(pathname);
  if (segments[0] === "preview") return segments.length === 2 && segments[1] ? { kind: "preview", token: segments[1] } : "notFound";
  const [handle, ...below] = segments;
  if (handle === undefined || !isValidHandle(handle) || isReservedHandle(handle)) return null;
  return ownerRoute(handle, below, search);
}

function imageRoute(pathname: string): PublicRoute | "notFound" {
  const image = parseImageFilePath(pathname);
  return image && formatOfFile(image.file) ? { kind: "imageFile", imageId: image.id, file: image.file } : "notFound";
}

/**
 * A custom domain's addresses: the owner's (`/`, `/{blogSlug}`, `/tags/...`, feeds) at the root,
 * `/sitemap.xml` the owner's sitemap, robots.txt and images as on the app's host; anything else
 * (previews, the dashboard, the APIs) names nothing there.
 */
function parseDomainRoute(pathname: string, search: URLSearchParams, handle: string): PublicRoute | "notFound" {
  if (pathname === "/robots.txt") return { kind: "robots" };
  if (pathname === "/sitemap.xml") return { kind: "sitemap", handle };
  if (pathname.startsWith("/images/")) return imageRoute(pathname);
  if (pathname === "/") return indexRoute(handle, search);
  const segments = pathname.split("/").slice(1);
  if (segments[0] === "preview" || segments.includes("")) return "notFound";
  return ownerRoute(handle, segments, search);
}

/** What the segments below an owner's home name. */
function ownerRoute(handle: string, [second, third, fourth, ...rest]: string[], search: URLSearchParams): PublicRoute | "notFound" {
  if (rest.length > 0) return "notFound";
  if (second === undefined) return indexRoute(handle, search);
  if (second === "sitemap.xml" && third === undefined) return { kind: "sitemap", handle };
  if (second === SEARCH_SEGMENT && third === undefined) return searchRoute(handle, search);
  // Before blogs' slugs: the subscribe form's address (docs/public-blog.md, Subscribe form) and
  // subscribers' links (docs/newsletters.md) are the publication's.
  if (second === "subscribe" && third === undefined) return { kind: "subscribe", handle };
  if (second === "subscribe" && third === "confirm" && fourth === undefined) return { kind: "subscribeConfirm", handle, token: search.get("token") ?? "" };
  if (second === "unsubscribe" && third === undefined) return { kind: "unsubscribe", handle, token: search.get("token") ?? "" };
  const ownerFeed = feedFormatOf(second);
  if (ownerFeed && third === undefined) return { kind: "feed", handle, format: ownerFeed };
  if (second === "tags" && third !== undefined && isTagSlug(third)) {
    if (fourth === undefined) return indexRoute(handle, search, third);
    const tagFeed = feedFormatOf(fourth);
    return tagFeed ? { kind: "feed", handle, format: tagFeed, tagSlug: third } : "notFound";
  }
  // An author's slug is their handle; a blog slugged `authors` keeps its page, as one slugged `tags` does.
  if (second === AUTHORS_SEGMENT && third !== undefined) {
    if (!isValidHandle(third)) return "notFound";
    if (fourth === undefined) return authorRoute(handle, third, search);
    const authorFeed = feedFormatOf(fourth);
    return authorFeed ? { kind: "feed", handle, format: authorFeed, authorSlug: third } : "notFound";
  }
  if (!SLUG_PATTERN.test(second) || fourth !== undefined) return "notFound";
  if (third === undefined) return { kind: "post", handle, blogSlug: second };
  return third === SHARE_IMAGE_FILE ? { kind: "shareImage", handle, blogSlug: second } : "notFound";
}
