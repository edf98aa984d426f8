import "server-only";
import { Feed, type Author } from "feed";
import { imagePath } from "~/shared/images";
import type { CoverImage } from "../blogs/public-blogs";
import { urlUnderHome } from "./home";
import { FEED_FORMATS, type FeedFormat } from "./routes";
import { withXmlCharactersOnly } from "./xml-characters";

/**
 * An owner's feeds (docs/public-blog.md): RSS 2.0, Atom 1.0 and JSON Feed 1.1 of their newest
 * public blogs, each with its full sanitized HTML, absolute links and its cover image, written by
 * the `feed` package. Its JSON is JSON Feed 1.0; the 1.1 changes it needs are made here (`authors`
 * lists instead of `author`, the version, and the cover as `banner_image` too). Characters XML
 * cannot carry are dropped from RSS and Atom (./xml-characters.ts); JSON escapes them.
 */

export interface FeedSource {
  /** The publication's home (./home.ts), for absolute links. */
  home: string;
  owner: { name: string; handle: string };
  /** A tag's feed: of the owner's blogs carrying it, at its page's address. */
  tag?: { name: string; slug: string };
  /** Newest first, their Markdown already rendered to sanitized HTML. */
  blogs: { title: string; blogSlug: string; description: string; html: string; tags: string[]; publishedAt: Date; updatedAt: Date; cover: CoverImage | null }[];
}

/** The page a feed belongs to: the owner's index, or their tag's page. */
export function feedPage(home: string, tag?: { slug: string }): string {
  return tag ? `${home}/tags/${tag.slug}` : home;
}

export function renderFeed(format: FeedFormat, { home, owner, tag, blogs }: FeedSource): string {
  const page = feedPage(home, tag);
  const origin = new URL(home).origin;
  const author: Author = { name: owner.name, link: urlUnderHome(home) };
  const feed = new Feed({
    id: page,
    link: page,
    title: tag ? `${tag.name}, by ${owner.name} (@${owner.handle})` : `${owner.name} (@${owner.handle})`,
    description: tag ? `Public blogs of ${owner.name} tagged ${tag.name}` : `Public blogs of ${owner.name}`,
    updated: new Date(Math.max(...blogs.map((blog) => blog.updatedAt.getTime()))),
    generator: "Blog Manager",
    feedLinks: Object.fromEntries(Object.entries(FEED_FORMATS).map(([name, { file }]) => [name, `${page}/${file}`])),
    author,
  });
  for (const blog of blogs) {
    const url = urlUnderHome(home, `/${blog.blogSlug}`);
    feed.addItem({
      id: url,
      link: url,
      title: blog.title,
      description: blog.description || undefined,
      content: blog.html,
      date: blog.updatedAt,
      published: blog.publishedAt,
      author: [author],
      category: blog.tags.map((name) => ({ name })),
      // RSS's enclosure (its type from the file's extension, which is its format), Atom's link rel=enclosure, JSON Feed's image.
      image: blog.cover ? { url: origin + imagePath(blog.cover), length: blog.cover.bytes } : undefined,
    });
  }
  if (format === "rss") return withXmlCharactersOnly(feed.rss2());
  if (format === "atom") return withXmlCharactersOnly(feed.atom1());
  return jsonFeed11(feed.json1());
}

type JsonFeedAuthor = { name?: string; url?: string };
type JsonFeed10 = { author?: JsonFeedAuthor; items: { author?: JsonFeedAuthor; image?: string }[] } & Record<string, unknown>;

/** JSON Feed 1.0 as `feed` writes it, made 1.1: `authors` arrays replace `author`; the cover, shown above the title on its page, is the item's banner too. */
function jsonFeed11(json10: string): string {
  const { author, items, ...feed } = JSON.parse(json10) as JsonFeed10;
  return JSON.stringify(
    {
      ...feed,
      version: "https://jsonfeed.org/version/1.1",
      ...(author && { authors: [author] }),
      items: items.map(({ author: itemAuthor, ...item }) => ({ ...item, ...(item.image && { banner_image: item.image }), ...(itemAuthor && { authors: [itemAuthor] }) })),
    },
    null,
    2,
  );
}
