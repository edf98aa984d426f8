import "server-only";
import { Feed, type Author } from "feed";
import { tagPagePath } from "~/shared/tags";
import { FEED_FORMATS, type FeedFormat } from "./public-site/routes";

/**
 * An owner's feeds (docs/public-blog.md): RSS 2.0, Atom 1.0 and JSON Feed 1.1 of their newest
 * public blogs, each with its full sanitized HTML and absolute links, written by the `feed`
 * package. Its JSON is JSON Feed 1.0; the one 1.1 change it needs is made here (`authors` lists
 * instead of `author`, and the version).
 */

export interface FeedSource {
  /** The app's origin, for absolute links. */
  origin: string;
  owner: { name: string; handle: string };
  /** A tag's feed: of the owner's blogs carrying it, at its page's address. */
  tag?: { name: string; slug: string };
  /** Newest first, their Markdown already rendered to sanitized HTML. */
  blogs: { title: string; blogSlug: string; description: string; html: string; tags: string[]; publishedAt: Date; updatedAt: Date }[];
}

/** The page a feed belongs to: the owner's index, or their tag's page. */
export function feedPage(origin: string, handle: string, tag?: { slug: string }): string {
  return tag ? `${origin}${tagPagePath(handle, tag.slug)}` : `${origin}/${handle}`;
}

export function renderFeed(format: FeedFormat, { origin, owner, tag, blogs }: FeedSource): string {
  const home = `${origin}/${owner.handle}`;
  const page = feedPage(origin, owner.handle, tag);
  const author: Author = { name: owner.name, link: home };
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
    const url = `${home}/${blog.blogSlug}`;
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
    });
  }
  if (format === "rss") return feed.rss2();
  if (format === "atom") return feed.atom1();
  return jsonFeed11(feed.json1());
}

type JsonFeedAuthor = { name?: string; url?: string };
type JsonFeed10 = { author?: JsonFeedAuthor; items: { author?: JsonFeedAuthor }[] } & Record<string, unknown>;

/** JSON Feed 1.0 as `feed` writes it, made 1.1: `authors` arrays replace `author`. */
function jsonFeed11(json10: string): string {
  const { author, items, ...feed } = JSON.parse(json10) as JsonFeed10;
  return JSON.stringify(
    {
      ...feed,
      version: "https://jsonfeed.org/version/1.1",
      ...(author && { authors: [author] }),
      items: items.map(({ author: itemAuthor, ...item }) => ({ ...item, ...(itemAuthor && { authors: [itemAuthor] }) })),
    },
    null,
    2,
  );
}
