import "server-only";
import { Readable } from "node:stream";
import { urlUnderHome } from "./home";
import { withXmlCharactersOnly } from "./xml-characters";
import { SitemapIndexStream, SitemapStream, streamToPromise, type IndexItem, type SitemapItemLoose } from "sitemap";

/**
 * The sitemaps (docs/public-blog.md), written by the `sitemap` package: `/sitemap.xml` indexes one
 * sitemap per owner with a public blog, `/{handle}/sitemap.xml` (a custom domain's `/sitemap.xml`) lists the owner's index page and
 * public blogs, their tags' pages and their authors' pages, each with its last change. A sitemap holds at most 50,000 addresses.
 */
export const SITEMAP_MAX_URLS = 50_000;

/** No image, video, news or xhtml extensions: plain addresses and their last change. */
const PLAIN = { news: false, video: false, xhtml: false, image: false };

async function written(items: (IndexItem | SitemapItemLoose)[], stream: SitemapStream | SitemapIndexStream): Promise<string> {
  // Addresses are made of handles and slugs, which hold none, but a sitemap is XML all the same.
  return withXmlCharactersOnly((await streamToPromise(Readable.from(items).pipe(stream))).toString());
}

export function renderSitemapIndex(origin: string, owners: { handle: string; lastmod: Date }[]): Promise<string> {
  return written(
    owners.map((owner) => ({ url: `${origin}/${owner.handle}/sitemap.xml`, lastmod: owner.lastmod.toISOString() })),
    new SitemapIndexStream(),
  );
}

/**
 * The owner's index page (changed when its newest blog did), each public blog, newest first, each
 * tag's page (changed when its newest blog did), and each author's page (changed when their newest
 * blog did: docs/public-blog.md, Authors).
 */
export function renderOwnerSitemap(
  home: string,
  blogs: { blogSlug: string; updatedAt: Date }[],
  tags: { slug: string; updatedAt: Date }[],
  authors: { handle: string; updatedAt: Date }[] = [],
): Promise<string> {
  const newest = new Date(Math.max(...blogs.map((blog) => blog.updatedAt.getTime())));
  return written(
    [
      { url: urlUnderHome(home), lastmod: newest.toISOString() },
      ...blogs.map((blog) => ({ url: urlUnderHome(home, `/${blog.blogSlug}`), lastmod: blog.updatedAt.toISOString() })),
      ...tags.map((tag) => ({ url: urlUnderHome(home, `/tags/${tag.slug}`), lastmod: tag.updatedAt.toISOString() })),
      ...authors.map((author) => ({ url: urlUnderHome(home, `/authors/${author.handle}`), lastmod: author.updatedAt.toISOString() })),
    ],
    new SitemapStream({ xmlns: PLAIN }),
  );
}
