import "server-only";
import { LRUCache } from "lru-cache";
import { cache } from "react";
import { markdownToHtml } from "~/lib/markdown";
import { isValidHandle } from "~/shared/handle";
import { SLUG_PATTERN } from "~/shared/blog-fields";
import { TAG_MAX_LENGTH, tagSlug } from "~/shared/tags";
import { findPublicBlog, findPublicOwner, findPublicTag, listFeedBlogs, listPublicBlogs, listSitemapBlogs, listSitemapOwners, type PublicOwner } from "./blogs/public-blogs";
import { getSqlPool } from "./db";
import { renderFeed, type FeedFormat } from "./feeds";
import { renderOwnerSitemap, renderSitemapIndex, SITEMAP_MAX_URLS } from "./sitemaps";

/**
 * The public pages' reads. Every hit looks up the owner and the account's public content version
 * (one statement by primary and unique keys); the rest (a page of the index, a blog with its
 * Markdown rendered) comes from a bounded in-process cache whose keys carry that version. A
 * trigger moves the version in the same transaction as any write to the account's public blogs,
 * whoever writes (API, dashboard, CLI, SQL), so the next request after a write misses the cache
 * and reads afresh, on every instance, with nothing to invalidate (README, Architecture). Entries
 * of older versions are never read again and age out of the LRU.
 */

/** Memory for each cache, in UTF-16 code units of its entries (about 2 bytes each). */
const CACHE_SIZE = 16 * 1024 * 1024;

type PublicBlog = NonNullable<Awaited<ReturnType<typeof findPublicBlog>>>;
type RenderedBlog = Omit<PublicBlog, "content"> & { html: string };
type IndexPage = Awaited<ReturnType<typeof listPublicBlogs>> & { tag: Awaited<ReturnType<typeof findPublicTag>> };

/** A cache whose concurrent misses of one key share a single load (lru-cache's fetch). */
function versionedCache<V extends object>(sizeOf: (value: V) => number) {
  return new LRUCache<string, V, () => Promise<V | undefined>>({
    maxSize: CACHE_SIZE,
    sizeCalculation: (value) => Math.max(1, sizeOf(value)),
    fetchMethod: (_key, _stale, { context }) => context(),
  });
}

const renderedBlogs = versionedCache<RenderedBlog>((blog) => blog.html.length + blog.title.length + blog.description.length + 1024);
const indexPages = versionedCache<IndexPage>((page) => page.blogs.reduce((size, blog) => size + blog.title.length + blog.description.length + 256, 64));
/** Feeds and sitemaps, as the text served. */
const documents = versionedCache<{ text: string }>((document) => document.text.length);

/** `load()` through `store`, under the owner's id and content version; uncached before the account's first public write. */
async function cachedForVersion<V extends object>(store: LRUCache<string, V, () => Promise<V | undefined>>, owner: PublicOwner, name: string, load: () => Promise<V | undefined>) {
  if (owner.contentVersion === null) return load();
  return store.fetch(`${owner.id}:${owner.contentVersion}:${name}`, { context: load });
}

/** A tag's slug in a public address: what tagSlug makes of it, itself (src/shared/tags.ts). */
export const isTagSlug = (value: string) => value.length > 0 && value.length <= 2 * TAG_MAX_LENGTH && tagSlug(value) === value;

/** The account behind a public address: a valid handle and, when given, a tag's slug; null otherwise or when unknown. */
async function publicOwner(handle: string, slug?: string): Promise<PublicOwner | null> {
  return isValidHandle(handle) && (slug === undefined || isTagSlug(slug)) ? findPublicOwner(getSqlPool(), handle) : null;
}

/**
 * The owner of `handle` and page `page` of their public blogs, newest first; with a tag's slug,
 * of those carrying it, and the tag as written. Null for an unknown handle, or a tag no public blog carries.
 */
export const publicBlogIndex = cache(async (handle: string, page: number, slug?: string) => {
  const owner = await publicOwner(handle, slug);
  if (!owner) return null;
  const index = await cachedForVersion(indexPages, owner, `${slug ?? ""}:${page}`, async () => {
    const tag = slug === undefined ? null : await findPublicTag(getSqlPool(), owner.id, slug);
    if (slug !== undefined && !tag) return undefined;
    return { tag, ...(await listPublicBlogs(getSqlPool(), owner.id, page, slug)) };
  });
  return index ? { owner, ...index } : null;
});

/** A public blog, its Markdown rendered, and its author; null when unknown or not public. */
export const publicBlog = cache(async (handle: string, blogSlug: string) => {
  if (!isValidHandle(handle) || !SLUG_PATTERN.test(blogSlug)) return null;
  const author = await findPublicOwner(getSqlPool(), handle);
  if (!author) return null;
  const blog = await cachedForVersion(renderedBlogs, author, blogSlug, async () => {
    const found = await findPublicBlog(getSqlPool(), author.id, blogSlug);
    if (!found) return undefined;
    const { content, ...fields } = found;
    return { ...fields, html: markdownToHtml(content) };
  });
  return blog ? { blog, author } : null;
});

/**
 * An owner's feed in `format`, its links under `origin` (part of the cache key: without a
 * configured origin each Host gets its own); null for an unknown handle or an account with no public blog.
 */
export async function publicFeed(handle: string, format: FeedFormat, origin: string, slug?: string): Promise<{ text: string } | null> {
  const owner = await publicOwner(handle, slug);
  if (!owner) return null;
  const feed = await cachedForVersion(documents, owner, `feed:${format}:${slug ?? ""}:${origin}`, async () => {
    const tag = slug === undefined ? undefined : await findPublicTag(getSqlPool(), owner.id, slug);
    if (tag === null) return undefined;
    const blogs = await listFeedBlogs(getSqlPool(), owner.id, slug);
    if (blogs.length === 0) return undefined;
    return { text: renderFeed(format, { origin, owner, tag, blogs: blogs.map(({ content, ...blog }) => ({ ...blog, html: markdownToHtml(content) })) }) };
  });
  return feed ?? null;
}

/** An owner's sitemap (links under `origin`, as for feeds); null for an unknown handle or an account with no public blog. */
export async function publicSitemap(handle: string, origin: string): Promise<{ text: string } | null> {
  const owner = await publicOwner(handle);
  if (!owner) return null;
  const sitemap = await cachedForVersion(documents, owner, `sitemap:${origin}`, async () => {
    // The owner's index page takes one of the sitemap's addresses.
    const blogs = await listSitemapBlogs(getSqlPool(), owner.id, SITEMAP_MAX_URLS - 1);
    return blogs.length === 0 ? undefined : { text: await renderOwnerSitemap(origin, owner.handle, blogs) };
  });
  return sitemap ?? null;
}

/** The sitemap index: one entry per owner with a public blog. Read afresh each time (no one account's version covers it). */
export async function publicSitemapIndex(origin: string): Promise<string> {
  return renderSitemapIndex(origin, await listSitemapOwners(getSqlPool(), SITEMAP_MAX_URLS));
}
