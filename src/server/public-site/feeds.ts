import "server-only";
import { Feed, type Author } from "feed";
import { imagePath } from "~/shared/images";
import type { CoverImage } from "../blogs/public-blogs";
import { authorPageHref } from "./home";
import type { PublicationView } from "./publication-view";
import { FEED_FORMATS, type FeedFormat } from "./routes";
import { withXmlCharactersOnly } from "./xml-characters";

/**
 * A publication's feeds (docs/public-blog.md): RSS 2.0, Atom 1.0 and JSON Feed 1.1 of its newest
 * public blogs, named, described and in the language as its settings say (docs/publication.md), each with its full sanitized HTML, absolute links and its cover image, written by
 * the `feed` package. Its JSON is JSON Feed 1.0; the 1.1 changes it needs are made here (`authors`
 * lists instead of `author`, the version, and the cover as `banner_image` too). Characters XML
 * cannot carry are dropped from RSS and Atom (./xml-characters.ts); JSON escapes them.
 */

export interface FeedSource {
  /** Its home is the base of its links; our images are under its origin. */
  site: Pick<PublicationView, "origin" | "home" | "title" | "description" | "language">;
  owner: { name: string };
  /** A tag's feed: of the owner's blogs carrying it, at its page's address. */
  tag?: { name: string; slug: string };
  /** An author's feed (docs/public-blog.md, Authors): of the blogs they author, at their page's address. */
  author?: { name: string; handle: string };
  /** Newest first, their Markdown already rendered to sanitized HTML; `authors` (an author's feed): each blog's, the primary first. */
  blogs: {
    title: string;
    blogSlug: string;
    description: string;
    html: string;
    tags: string[];
    publishedAt: Date;
    updatedAt: Date;
    cover: CoverImage | null;
    authors?: { name: string; handle: string }[];
  }[];
}

/** The page a feed belongs to: the publication's home, a tag's page, or an author's. */
export function feedPage(home: string, tag?: { slug: string }, author?: { handle: string }): string {
  if (author) return authorPageHref(home, author.handle);
  return tag ? `${home}/tags/${tag.slug}` : home;
}

export function renderFeed(format: FeedFormat, { site, owner, tag, author: byAuthor, blogs }: FeedSource): string {
  const { home, origin } = site;
  const page = feedPage(home, tag, byAuthor);
  const author: Author = byAuthor ? { name: byAuthor.name, link: page } : { name: owner.name, link: home };
  const feed = new Feed({
    id: page,
    link: page,
    title: byAuthor ? `${byAuthor.name} – ${site.title}` : tag ? `${tag.name} – ${site.title}` : site.title,
    description: byAuthor ? `Posts by ${byAuthor.name} in ${site.title}` : tag ? `Posts tagged ${tag.name} in ${site.title}` : site.description || `Posts of ${site.title}`,
    language: site.language,
    updated: new Date(Math.max(...blogs.map((blog) => blog.updatedAt.getTime()))),
    // Nothing names the app on a publication's pages and feeds.
    generator: false,
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
      author: blog.authors ? blog.authors.map((one) => ({ name: one.name, link: authorPageHref(home, one.handle) })) : [author],
      category: blog.tags.map((name) => ({ name })),
      // RSS's enclosure (its type from the file's extension, which is its format), Atom's link rel=enclosure, JSON Feed's image.
      image: blog.cover ? { url: origin + imagePath(blog.cover), length: blog.cover.bytes } : undefined,
    });
  }
  if (format === "rss") return withXmlCharactersOnly(feed.rss2());
  if (format === "atom") return withXmlCharactersOnly(feed.atom1());
  // JSON Feed 1.0 names an item's first author only: 1.1's lists name them all.
  const itemAuthors = blogs.map((blog) => blog.authors?.map((one) => ({ name: one.name, url: authorPageHref(home, one.handle) })));
  return jsonFeed11(feed.json1(), site.language, itemAuthors);
}

type JsonFeedAuthor = { name?: string; url?: string };
type JsonFeed10 = { author?: JsonFeedAuthor; items: { author?: JsonFeedAuthor; image?: string }[] } & Record<string, unknown>;

/** JSON Feed 1.0 as `feed` writes it, made 1.1: `authors` arrays replace `author`, with its `language`; the cover, shown above the title on its page, is the item's banner too. */
function jsonFeed11(json10: string, language: string, itemAuthors: (JsonFeedAuthor[] | undefined)[]): string {
  const { author, items, ...feed } = JSON.parse(json10) as JsonFeed10;
  return JSON.stringify(
    {
      ...feed,
      version: "https://jsonfeed.org/version/1.1",
      language,
      ...(author && { authors: [author] }),
      items: items.map(({ author: itemAuthor, ...item }, index) => ({
        ...item,
        ...(item.image && { banner_image: item.image }),
        ...(itemAuthors[index] ? { authors: itemAuthors[index] } : itemAuthor && { authors: [itemAuthor] }),
      })),
    },
    null,
    2,
  );
}
