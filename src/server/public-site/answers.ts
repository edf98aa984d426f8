import "server-only";
import { markdownToHtml } from "~/lib/markdown";
import {
  findAdjacentPublicBlogs,
  findMovedPublicBlog,
  findPublicBlog,
  findPublicOwner,
  findPublicTag,
  listFeedBlogs,
  listPublicBlogs,
  listRelatedPublicBlogs,
  listSitemapBlogs,
  listSitemapOwners,
  listSitemapTags,
  type PublicOwner,
} from "../blogs/public-blogs";
import { findPublicAuthor, listAuthorBlogs, listAuthorFeedBlogs, listBlogAuthors, listSitemapAuthors, type PublicAuthor } from "../blogs/public-authors";
import { searchPublicBlogs } from "../blogs/search-public-blogs";
import { findPreviewedBlog } from "../blogs/preview-links";
import { getSqlPool, type SqlPool } from "../db";
import { articleHtml } from "./article-html";
import { renderFeed } from "./feeds";
import { renderOwnerSitemap, renderSitemapIndex, SITEMAP_MAX_URLS } from "./sitemaps";
import { makeAnswer, makeRedirect, publicPageCache, publicSearchCache, type CacheResult, type PublicAnswer } from "./cache";
import { postSummary, renderAuthorPage, renderIndexPage, renderNotFoundPage, renderPostPage, renderPreviewPage, renderSearchPage, renderSubscribePage } from "./pages";
import type { AuthorView, PostEndView } from "./post-end";
import { FEED_FORMATS, SHARE_IMAGE_FILE, type PublicRoute } from "./routes";
import { authorPageHref, pathUnderHome, publicationHome } from "./home";
import { readPublicContent } from "./replay-fence";
import { readPublicationView, type PublicationView } from "./publication-view";
import { renderShareImage } from "./share-image";

/**
 * What each public address answers (docs/public-blog.md), through the shared cache (./cache.ts):
 * the body made from the database, or null when there is nothing public there (404). Links in
 * them are absolute, under the site's `origin` (src/server/http/public-origin.ts, or a verified
 * custom domain's), which is part of every key.
 */

/** Where a request reached the public site: the origin its links are under, and whether that is the publication's custom domain. */
export interface PublicSite {
  origin: string;
  onDomain: boolean;
}

const HTML = "text/html; charset=utf-8";
/** Tag pages listed in an owner's sitemap, at most; the rest of its 50,000 addresses are blogs. */
const SITEMAP_MAX_TAGS = 10_000;
/** Author pages listed in an owner's sitemap, at most. */
const SITEMAP_MAX_AUTHORS = 1_000;
/** robots.txt never changes while the server runs. */
const startedAt = new Date(Math.floor(Date.now() / 1000) * 1000);

type OwnerRoute = Exclude<CachedRoute, { kind: "robots" | "sitemapIndex" }>;
/** Subscribers' links (./subscriptions.ts) act on a secret: never cached. */
export type CachedRoute = Exclude<PublicRoute, { kind: "preview" | "imageFile" | "subscribeConfirm" | "unsubscribe" }>;

/** Crawlers may read the public blog, not the dashboard, the APIs or preview links; the sitemap index is named. */
function robots(origin: string): PublicAnswer {
  const text = ["User-agent: *", "Disallow: /dashboard", "Disallow: /api/", "Disallow: /preview/", `Sitemap: ${origin}/sitemap.xml`, ""].join("\n");
  return makeAnswer("text/plain; charset=utf-8", text, startedAt);
}

/** The sitemap index: one entry per owner with a public blog. */
async function sitemapIndex(pool: SqlPool, origin: string): Promise<PublicAnswer> {
  const owners = await listSitemapOwners(pool, SITEMAP_MAX_URLS);
  const lastModified = new Date(Math.floor(Math.max(0, ...owners.map((owner) => owner.lastmod.getTime())) / 1000) * 1000);
  return makeAnswer("application/xml; charset=utf-8", await renderSitemapIndex(origin, owners), lastModified);
}

/**
 * A moved blog's old address, or its share image's (docs/public-blog.md, Moved blogs): a redirect
 * to the same under the slug it has now, while it is public; null otherwise.
 */
async function movedBlogAnswer(pool: SqlPool, route: Extract<OwnerRoute, { kind: "post" | "shareImage" }>, owner: PublicOwner, home: string, lastModified: Date): Promise<PublicAnswer | null> {
  const blogSlug = await findMovedPublicBlog(pool, owner.id, route.blogSlug);
  if (blogSlug === null) return null;
  // Encoded: plain SQL may write a slug outside the API's rules, which a header must not carry as is.
  return makeRedirect(pathUnderHome(home, `/${encodeURIComponent(blogSlug)}${route.kind === "shareImage" ? `/${SHARE_IMAGE_FILE}` : ""}`), lastModified);
}

/**
 * A post's authors as its page shows them (docs/public-blog.md, Authors), the primary first, each
 * linking to their author page. A post whose only author founded the publication (their id is its
 * id) shows them as before authors were: linking to its home, with a line about it. With nobody
 * left (deleted people), the publication's name.
 */
function postAuthors(owner: PublicOwner, home: string, authors: PublicAuthor[]): AuthorView[] {
  if (authors.length === 0) return [{ name: owner.name, href: home, image: null, bio: "" }];
  const view = ({ name, image, bio }: PublicAuthor) => ({ name, image, bio });
  if (authors.length === 1 && authors[0]!.id === owner.id) return [{ ...view(authors[0]!), href: home, aboutPublication: true }];
  return authors.map((author) => ({ ...view(author), href: authorPageHref(home, author.handle) }));
}

/**
 * What ends a public blog's page (./post-end.tsx): its authors, its neighbours and related blogs,
 * all read at the owner's content version, which every public write moves (and every change of an
 * author's name, bio, picture or handle), so they are never older than the page.
 */
async function postEnd(pool: SqlPool, owner: PublicOwner, site: PublicationView, blogSlug: string, authors: AuthorView[]): Promise<PostEndView> {
  const [{ previous, next }, related] = await Promise.all([findAdjacentPublicBlogs(pool, owner.id, blogSlug), listRelatedPublicBlogs(pool, owner.id, blogSlug)]);
  return { site, authors, previous, next, related };
}

/** A page of the publication: its HTML, allowing the publication's accent stylesheet. */
const pageAnswer = (site: PublicationView, html: string, lastModified: Date) => makeAnswer(HTML, html, lastModified, styled(site, html).styleSources);

/**
 * An owner's answer at their current content version; null when there is nothing public at the
 * address. Their home is an answer even before their first public blog (docs/publication.md).
 */
async function ownerAnswer(pool: SqlPool, route: OwnerRoute, owner: PublicOwner, { origin, onDomain }: PublicSite): Promise<PublicAnswer | null> {
  const author = { name: owner.name, handle: owner.handle };
  const lastModified = owner.changedAt;
  const home = publicationHome(origin, owner.handle, onDomain);
  if (route.kind === "sitemap") {
    const tags = await listSitemapTags(pool, owner.id, SITEMAP_MAX_TAGS);
    const authors = await listSitemapAuthors(pool, owner.id, SITEMAP_MAX_AUTHORS);
    // The owner's index page takes one of the sitemap's addresses.
    const blogs = await listSitemapBlogs(pool, owner.id, SITEMAP_MAX_URLS - 1 - tags.length - authors.length);
    if (blogs.length === 0) return null;
    return makeAnswer("application/xml; charset=utf-8", await renderOwnerSitemap(home, blogs, tags, authors), lastModified);
  }
  const site = await readPublicationView(pool, owner, origin, home);
  switch (route.kind) {
    case "index": {
      const { page } = route;
      const tag = route.tagSlug === undefined ? null : await findPublicTag(pool, owner.id, route.tagSlug);
      if (route.tagSlug !== undefined && !tag) return null;
      const { blogs, hasOlder } = await listPublicBlogs(pool, owner.id, page, route.tagSlug);
      // An empty first page of the home says so; any other empty page is none.
      if (blogs.length === 0 && (tag || page > 1)) return null;
      return pageAnswer(site, renderIndexPage(site, { tag, page, hasOlder, blogs: blogs.map(postSummary) }), lastModified);
    }
    case "author": {
      const person = await findPublicAuthor(pool, owner.id, route.authorSlug);
      if (!person) return null;
      const { blogs, hasOlder } = await listAuthorBlogs(pool, owner.id, person.id, route.page);
      // Past their last page: nothing there.
      if (blogs.length === 0) return null;
      return pageAnswer(site, renderAuthorPage(site, { author: person, page: route.page, hasOlder, blogs: blogs.map(postSummary) }), lastModified);
    }
    case "search": {
      const { q, page } = route;
      const { results, hasOlder } = q ? await searchPublicBlogs(pool, owner.id, q, page) : { results: [], hasOlder: false };
      // Past the last page, as an index's: nothing there. The first page says that nothing matched.
      if (page > 1 && results.length === 0) return null;
      return pageAnswer(site, renderSearchPage(site, { q, page, hasOlder, results }), lastModified);
    }
    case "subscribe":
      return pageAnswer(site, renderSubscribePage(site), lastModified);
    case "post": {
      const blog = await findPublicBlog(pool, owner.id, route.blogSlug);
      if (!blog) return movedBlogAnswer(pool, route, owner, home, lastModified);
      const authors = postAuthors(owner, home, await listBlogAuthors(pool, blog.id));
      const html = articleHtml(blog.content, { origin, imagesWithPendingVariants: blog.imagesWithPendingVariants, hasCover: blog.cover !== null });
      const article = { ...blog, blogSlug: route.blogSlug, html, authors: authors.map(({ name, href }) => ({ name, href })) };
      const page = renderPostPage(site, article, await postEnd(pool, owner, site, route.blogSlug, authors));
      return { ...pageAnswer(site, page, lastModified), blogId: blog.id };
    }
    case "shareImage": {
      const blog = await findPublicBlog(pool, owner.id, route.blogSlug);
      if (!blog) return movedBlogAnswer(pool, route, owner, home, lastModified);
      // Its primary author's name, as its page's byline leads with it.
      const [primary] = postAuthors(owner, home, await listBlogAuthors(pool, blog.id));
      return makeAnswer("image/png", await renderShareImage({ title: blog.title, author: primary!.name, site: site.title }), lastModified);
    }
    case "feed": {
      const tag = route.tagSlug === undefined ? undefined : await findPublicTag(pool, owner.id, route.tagSlug);
      if (tag === null) return null;
      const person = route.authorSlug === undefined ? undefined : await findPublicAuthor(pool, owner.id, route.authorSlug);
      if (person === null) return null;
      const blogs = person ? await listAuthorFeedBlogs(pool, owner.id, person.id) : await listFeedBlogs(pool, owner.id, route.tagSlug);
      if (blogs.length === 0) return null;
      // Read away from the site: our images' URLs are absolute, like the feed's links. Code stays
      // plain: a feed reader shows its own styles, and no class of ours means anything there.
      const html = (content: string, imagesWithPendingVariants: string[]) => markdownToHtml(content, { origin, absoluteImageUrls: true, imagesWithPendingVariants });
      const text = renderFeed(route.format, {
        site,
        owner: author,
        tag,
        ...(person && { author: { name: person.name, handle: person.handle } }),
        blogs: blogs.map(({ content, imagesWithPendingVariants, ...blog }) => ({ ...blog, html: html(content, imagesWithPendingVariants) })),
      });
      return makeAnswer(FEED_FORMATS[route.format].contentType, text, lastModified);
    }
  }
}

/** The cache key of a route's answer: what it names, normalized (a query it ignores is no new key). */
function cacheKey(route: CachedRoute, origin: string): string {
  switch (route.kind) {
    case "robots":
    case "sitemapIndex":
      return `${origin} ${route.kind}`;
    case "index":
      return `${origin} index ${route.handle} ${route.tagSlug ?? ""} ${route.page}`;
    case "search":
      return `${origin} search ${route.handle} ${route.page} ${route.q}`;
    case "post":
    case "shareImage":
      return `${origin} ${route.kind} ${route.handle} ${route.blogSlug}`;
    case "author":
      return `${origin} author ${route.handle} ${route.authorSlug} ${route.page}`;
    case "feed":
      return route.authorSlug === undefined ? `${origin} feed ${route.handle} ${route.tagSlug ?? ""} ${route.format}` : `${origin} authorFeed ${route.handle} ${route.authorSlug} ${route.format}`;
    case "sitemap":
    case "subscribe":
      return `${origin} ${route.kind} ${route.handle}`;
  }
}

/**
 * An owner's address on the app's host once their publication is served at its verified domain
 * (docs/public-blog.md, Custom domains): 301 to the same path there, without the handle (the
 * handler adds the request's query).
 */
const toDomainAnswer = (domain: string, pathname: string, lastModified: Date) =>
  makeRedirect(`https://${domain}${pathname.replace(/^\/[^/]+/, "") || "/"}`, lastModified);

/**
 * The answer for a cacheable public address (`pathname` is the request's), with the account it
 * shows (for CDN cache tags) and how the cache had it; null: nothing public there. Every read of
 * one load is made on one database, a read replica when the fence allows (./replay-fence.ts), so
 * the version an answer is kept at is the one its content was read at.
 */
export async function publicAnswer(route: CachedRoute, site: PublicSite, pathname: string): Promise<CacheResult | null> {
  const { origin } = site;
  const cache = route.kind === "search" ? publicSearchCache : publicPageCache;
  return cache.get(cacheKey(route, origin), async (kept) => {
    if (route.kind === "robots") return kept ?? { ownerId: null, version: null, answer: robots(origin) };
    if (route.kind === "sitemapIndex") return { ownerId: null, version: null, answer: await readPublicContent((pool) => sitemapIndex(pool, origin)) };
    return readPublicContent(async (pool) => {
      const owner = await findPublicOwner(pool, route.handle);
      if (!owner) return null;
      if (kept && kept.ownerId === owner.id && kept.version === owner.contentVersion) return kept;
      const answer = owner.verifiedDomain && !site.onDomain ? toDomainAnswer(owner.verifiedDomain, pathname, owner.changedAt) : await ownerAnswer(pool, route, owner, site);
      return answer && { ownerId: owner.id, version: owner.contentVersion, answer };
    });
  });
}

/** An HTML page and the CSP sources of its stylesheets besides the reader's. */
export interface StyledPage {
  html: string;
  styleSources: string[];
}

export const styled = (site: PublicationView, html: string): StyledPage => ({ html, styleSources: site.accent ? [site.accent.source] : [] });

/**
 * The 404 of a page address under a known handle (a post, a tag, an author, a page past the last): its
 * publication's, leading to its home (whose existence its home already shows). Never cached, like
 * every 404; null for any other address, which gets the plain 404.
 */
export async function ownerNotFoundPage(route: CachedRoute, { origin, onDomain }: PublicSite): Promise<StyledPage | null> {
  if (route.kind !== "index" && route.kind !== "post" && route.kind !== "author") return null;
  return readPublicContent(async (pool) => {
    const owner = await findPublicOwner(pool, route.handle);
    if (!owner) return null;
    const site = await readPublicationView(pool, owner, origin, publicationHome(origin, owner.handle, onDomain));
    return styled(site, renderNotFoundPage(site));
  });
}

/** A blog through its secret preview link (never cached), with its page's stylesheets' CSP sources; null once expired or revoked. */
export async function previewPage(token: string, origin: string): Promise<StyledPage | null> {
  const pool = getSqlPool();
  const blog = await findPreviewedBlog(pool, token);
  if (!blog) return null;
  const site = await readPublicationView(pool, { id: blog.authorId, name: blog.authorName }, origin, publicationHome(origin, blog.authorHandle, false));
  const article = {
    ...blog,
    html: articleHtml(blog.content, { origin, imagesWithPendingVariants: blog.imagesWithPendingVariants, hasCover: blog.cover !== null }),
    authors: [{ name: blog.authorName, href: publicationHome(origin, blog.authorHandle, false) }],
  };
  return styled(site, renderPreviewPage(site, article, blog.expiresAt));
}
