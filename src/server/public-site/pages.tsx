import "server-only";
import { Fragment, type ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { formatDate, formatDateTime } from "~/lib/format";
import { SNIPPET_MARK_END, SNIPPET_MARK_START, type SearchResult } from "../blogs/search-public-blogs";
import { MAX_SEARCH_LENGTH } from "~/shared/blog-fields";
import { imagePath, type ImageFormat, type ImageReference } from "~/shared/images";
import { CARD_COVER_SIZES, READER_COLUMN_SIZES, responsivePicture } from "~/shared/responsive-images";
import { tagPagePath, tagSlug } from "~/shared/tags";
import { feedPage } from "./feeds";
import { READER_CSS } from "./reader-style";
import { PostEnd, SubscribeForm, type PostEndView } from "./post-end";
import { FEED_FORMATS, SHARE_IMAGE_FILE, type FeedFormat } from "./routes";
import { SHARE_IMAGE_SIZE } from "./share-image";

/**
 * The public site's pages (docs/public-blog.md) as plain HTML: React renders them once per change
 * to static markup, with no script at all, so they work without JavaScript and a reader's browser
 * loads no framework. One stylesheet, inlined (./reader-style.ts).
 */

const SITE_NAME = "Blog Manager";

export interface Author {
  name: string;
  handle: string;
}

interface Head {
  title: string;
  description: string;
  /** Absolute; also og:url. Absent on pages that are nobody's address (a preview, a 404). */
  canonical?: string;
  /** The robots meta: previews and 404s are neither indexed nor followed, search answers not indexed. */
  robots?: "noindex" | "noindex, nofollow";
  feeds?: { page: string; name: string };
  openGraph?: { type: "article" | "website"; image: ShareImage; publishedTime?: string; modifiedTime?: string; author?: string };
  /** schema.org structured data. */
  jsonLd?: object;
}

const FEED_TITLES = { rss: "RSS", atom: "Atom", json: "JSON Feed" } satisfies Record<FeedFormat, string>;

/** An absolute image URL for og:image and twitter:image, with its size. */
interface ShareImage {
  url: string;
  width: number;
  height: number;
}

/** What social networks' cards show (Open Graph, X): not AVIF, whose cover leaves the generated share image in its place. */
const CARD_FORMATS: readonly ImageFormat[] = ["jpeg", "png", "gif", "webp"];

/** A blog's share image (docs/public-blog.md): its cover's original when cards show its format, else the one drawn for it (./share-image.tsx). */
function shareImage(origin: string, handle: string, blog: { blogSlug: string; cover: ImageReference | null }): ShareImage {
  const { cover } = blog;
  if (cover && CARD_FORMATS.includes(cover.format)) return { url: origin + imagePath(cover), width: cover.width, height: cover.height };
  return { url: `${origin}/${handle}/${blog.blogSlug}/${SHARE_IMAGE_FILE}`, ...SHARE_IMAGE_SIZE };
}

/**
 * One of our images as a <picture> of its variants (src/shared/responsive-images.ts), decorative
 * (alt=""), `sizes` the width its place gives it. Lazy below the fold; `priority` for the one above
 * it, fetched first.
 */
function Picture({ image, sizes, className, priority = false }: { image: ImageReference; sizes: string; className: string; priority?: boolean }) {
  const { sources, img } = responsivePicture(image);
  const loading = priority ? ({ fetchPriority: "high", loading: "eager", decoding: "async" } as const) : ({ loading: "lazy", decoding: "async" } as const);
  return (
    <picture className={className}>
      {sources.map((source) => (
        <source key={source.type} {...source} sizes={sizes} />
      ))}
      <img {...img} sizes={img.srcSet && sizes} alt="" {...loading} />
    </picture>
  );
}

/** JSON inside a script element: `<` escaped, so no string in it can close the element. */
const scriptJson = (value: object) => JSON.stringify(value).replace(/</g, "\\u003c");

function Document({ head, children }: { head: Head; children: ReactNode }) {
  const { title, description, canonical, openGraph, feeds } = head;
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{title}</title>
        <meta name="description" content={description} />
        {head.robots && <meta name="robots" content={head.robots} />}
        {canonical && <link rel="canonical" href={canonical} />}
        {feeds &&
          (Object.keys(FEED_FORMATS) as FeedFormat[]).map((format) => (
            <link
              key={format}
              rel="alternate"
              type={FEED_FORMATS[format].contentType.split(";")[0]}
              href={`${feeds.page}/${FEED_FORMATS[format].file}`}
              title={`${feeds.name} (${FEED_TITLES[format]})`}
            />
          ))}
        <meta name="theme-color" content="#ffffff" media="(prefers-color-scheme: light)" />
        <meta name="theme-color" content="#0b1120" media="(prefers-color-scheme: dark)" />
        {openGraph && canonical && (
          <>
            <meta property="og:type" content={openGraph.type} />
            <meta property="og:site_name" content={SITE_NAME} />
            <meta property="og:title" content={title} />
            <meta property="og:description" content={description} />
            <meta property="og:url" content={canonical} />
            <meta property="og:image" content={openGraph.image.url} />
            <meta property="og:image:width" content={String(openGraph.image.width)} />
            <meta property="og:image:height" content={String(openGraph.image.height)} />
            {openGraph.publishedTime && <meta property="article:published_time" content={openGraph.publishedTime} />}
            {openGraph.modifiedTime && <meta property="article:modified_time" content={openGraph.modifiedTime} />}
            {openGraph.author && <meta property="article:author" content={openGraph.author} />}
            <meta name="twitter:card" content="summary_large_image" />
            <meta name="twitter:title" content={title} />
            <meta name="twitter:description" content={description} />
            <meta name="twitter:image" content={openGraph.image.url} />
          </>
        )}
        {head.jsonLd && <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: scriptJson(head.jsonLd) }} />}
        <style dangerouslySetInnerHTML={{ __html: READER_CSS }} />
      </head>
      <body>
        <div className="page">{children}</div>
      </body>
    </html>
  );
}

function SiteLink() {
  return (
    <a className="site" href="/">
      <span aria-hidden="true" className="site-mark">
        B
      </span>
      {SITE_NAME}
    </a>
  );
}

/** Page `number` of the results of an owner's search (docs/public-blog.md, Search). */
function searchResultsPath(handle: string, q: string, number: number): string {
  const query = new URLSearchParams({ q });
  if (number > 1) query.set("page", String(number));
  return `/${handle}/search?${query}`;
}

/** The search box of an owner's pages: a GET form, so it works without script. */
function SearchForm({ handle, q = "" }: { handle: string; q?: string }) {
  return (
    <form role="search" className="search" action={`/${handle}/search`} method="get">
      <label htmlFor="search-q">Search blogs</label>
      <input id="search-q" type="search" name="q" defaultValue={q} maxLength={MAX_SEARCH_LENGTH} />
      <button type="submit">Search</button>
    </form>
  );
}

function FeedLinks({ page }: { page: string }) {
  return (
    <p className="feeds">
      Follow:{" "}
      {(Object.keys(FEED_FORMATS) as FeedFormat[]).map((format) => (
        <a key={format} href={`${page}/${FEED_FORMATS[format].file}`}>
          {FEED_TITLES[format]}
        </a>
      ))}
    </p>
  );
}

const page = (head: Head, body: ReactNode) => `<!DOCTYPE html>${renderToStaticMarkup(<Document head={head}>{body}</Document>)}`;

export interface ArticleView {
  title: string;
  description: string;
  /** The Markdown as sanitized HTML (src/lib/markdown.ts), and only that. */
  html: string;
  tags: string[];
  /** Null: not published yet (a preview). */
  publishedAt: Date | null;
  /** Shown above the title. */
  cover: ImageReference | null;
  author: Author;
}

/** `end`: what follows the post's body on its public page (./post-end.tsx). */
function Article({ article, banner, end }: { article: ArticleView; banner?: ReactNode; end?: ReactNode }) {
  const { title, description, html, tags, publishedAt, cover, author } = article;
  return (
    <>
      {banner}
      <SiteLink />
      <SearchForm handle={author.handle} />
      <main>
        <article>
          {cover && <Picture image={cover} sizes={READER_COLUMN_SIZES} className="cover" priority />}
          <header className="post">
            <h1>{title}</h1>
            {description && <p className="lede">{description}</p>}
            <p className="byline">
              By <a href={`/${author.handle}`}>{author.name}</a> ·{" "}
              {publishedAt ? <time dateTime={publishedAt.toISOString()}>{formatDate(publishedAt.toISOString())}</time> : "Not published yet"}
            </p>
            {tags.length > 0 && (
              <ul aria-label="Tags" className="tags">
                {tags.map((tag) => (
                  <li key={tag}>
                    <a href={tagPagePath(author.handle, tagSlug(tag))}>{tag}</a>
                  </li>
                ))}
              </ul>
            )}
          </header>
          <div className="markdown" dangerouslySetInnerHTML={{ __html: html }} />
        </article>
        {end}
      </main>
    </>
  );
}

/**
 * A public blog: `seoTitle`/`seoDescription` for its head when set, its share image, JSON-LD
 * BlogPosting; after its body, `end` (./post-end.tsx) and its publication's feeds.
 */
export function renderPostPage(origin: string, article: ArticleView & { blogSlug: string; seoTitle: string; seoDescription: string; updatedAt: Date }, end: PostEndView): string {
  const { author } = article;
  const url = `${origin}/${author.handle}/${article.blogSlug}`;
  const title = article.seoTitle || article.title;
  // Never the site's generic description: a blog without one is described by its title.
  const description = article.seoDescription || article.description || `${article.title}, by ${author.name}`;
  const image = shareImage(origin, author.handle, article);
  const publishedTime = article.publishedAt?.toISOString();
  const modifiedTime = article.updatedAt.toISOString();
  const jsonLd = {
    "@context": "https://schema.org",
    "@type": "BlogPosting",
    headline: article.title,
    description,
    image: [image.url],
    datePublished: publishedTime,
    dateModified: modifiedTime,
    author: { "@type": "Person", name: author.name, url: `${origin}/${author.handle}` },
    publisher: { "@type": "Organization", name: SITE_NAME, url: origin },
    mainEntityOfPage: { "@type": "WebPage", "@id": url },
    ...(article.tags.length > 0 && { keywords: article.tags.join(", ") }),
  };
  return page(
    {
      title,
      description,
      canonical: url,
      feeds: { page: feedPage(origin, author.handle), name: author.name },
      openGraph: { type: "article", image, publishedTime, modifiedTime, author: author.name },
      jsonLd,
    },
    <Article
      article={article}
      end={
        <>
          <PostEnd view={end} />
          <FeedLinks page={feedPage(origin, author.handle)} />
        </>
      }
    />,
  );
}

/** A blog through its secret preview link, exactly as its public page will look, below a banner; never indexed. */
export function renderPreviewPage(article: ArticleView, expiresAt: Date): string {
  const banner = (
    <p role="note" className="note">
      <strong>Preview.</strong> This is how the blog will look once published; only people with this link can see it. The link works until{" "}
      {formatDateTime(expiresAt.toISOString())}.
    </p>
  );
  return page({ title: `Preview: ${article.title} · ${SITE_NAME}`, description: article.description || article.title, robots: "noindex, nofollow" }, <Article article={article} banner={banner} />);
}

export interface IndexView {
  owner: Author;
  /** A tag's page: the tag as its newest blog writes it. */
  tag: { name: string; slug: string } | null;
  page: number;
  hasOlder: boolean;
  blogs: { title: string; blogSlug: string; description: string; publishedAt: Date; cover: ImageReference | null }[];
}

/** The address of page `number` of an owner's index or tag page: `?page=N` from the second. */
export function indexPagePath(handle: string, number: number, tag: { slug: string } | null): string {
  const base = tag ? tagPagePath(handle, tag.slug) : `/${handle}`;
  return number === 1 ? base : `${base}?page=${number}`;
}

/** An owner's public blogs (or those with a tag), newest first, a page at a time. */
export function renderIndexPage(origin: string, { owner, tag, page: number, hasOlder, blogs }: IndexView, publicationTitle: string): string {
  const name = tag ? `${tag.name}, by ${owner.name} (@${owner.handle})` : `${owner.name} (@${owner.handle})`;
  const title = number === 1 ? name : `${name}, page ${number}`;
  const description = tag ? `Public blogs of ${owner.name} tagged ${tag.name}` : `Public blogs of ${owner.name}`;
  const feeds = feedPage(origin, owner.handle, tag ?? undefined);
  const head: Head = {
    title,
    description,
    canonical: `${origin}${indexPagePath(owner.handle, number, tag)}`,
    feeds: { page: feeds, name: tag ? `${tag.name}, by ${owner.name}` : owner.name },
    // No blog yet only in the dashboard's preview (src/server/publication/preview.ts): the site answers 404 then.
    ...(blogs[0] && { openGraph: { type: "website", image: shareImage(origin, owner.handle, blogs[0]) } }),
  };
  return page(
    head,
    <>
      <SiteLink />
      <SearchForm handle={owner.handle} />
      <main>
        {tag ? (
          <>
            <h1>{tag.name}</h1>
            <p className="meta">
              Tagged by <a href={`/${owner.handle}`}>{owner.name}</a>
            </p>
          </>
        ) : (
          <>
            <h1>{owner.name}</h1>
            <p className="meta">@{owner.handle}</p>
          </>
        )}
        <ul className="list">
          {blogs.map((blog) => (
            <li key={blog.blogSlug}>
              {blog.cover && <Picture image={blog.cover} sizes={CARD_COVER_SIZES} className="thumb" />}
              <h2>
                <a href={`/${owner.handle}/${blog.blogSlug}`}>{blog.title}</a>
              </h2>
              {blog.description && <p>{blog.description}</p>}
              <p className="meta">
                <time dateTime={blog.publishedAt.toISOString()}>{formatDate(blog.publishedAt.toISOString())}</time>
              </p>
            </li>
          ))}
        </ul>
        {(number > 1 || hasOlder) && (
          <nav aria-label="Pages" className="pages">
            {number > 1 ? <a href={indexPagePath(owner.handle, number - 1, tag)}>← Newer</a> : <span />}
            <span>Page {number}</span>
            {hasOlder ? <a href={indexPagePath(owner.handle, number + 1, tag)}>Older →</a> : <span />}
          </nav>
        )}
        <SubscribeForm home={`/${owner.handle}`} publicationTitle={publicationTitle} />
        <FeedLinks page={feeds} />
      </main>
    </>,
  );
}

export interface SearchView {
  owner: Author;
  /** Trimmed; empty: the page shows the search box only. */
  q: string;
  page: number;
  hasOlder: boolean;
  results: SearchResult[];
}

/** A snippet's text, its matching words marked (the marks are ts_headline's: src/server/blogs/search-public-blogs.ts). */
function Snippet({ text }: { text: string }) {
  const [before, ...marked] = text.split(SNIPPET_MARK_START);
  return (
    <p>
      {before}
      {marked.map((part, index) => {
        const [word, after] = part.split(SNIPPET_MARK_END);
        return (
          <Fragment key={index}>
            <mark>{word}</mark>
            {after}
          </Fragment>
        );
      })}
    </p>
  );
}

/** An owner's public blogs matching a search, newest first, a page at a time; never indexed. */
export function renderSearchPage({ owner, q, page: number, hasOlder, results }: SearchView): string {
  const searched = q ? `Search: ${q}${number > 1 ? `, page ${number}` : ""}` : "Search";
  return page(
    { title: `${searched} – ${owner.name}`, description: `Search the public blogs of ${owner.name}`, robots: "noindex" },
    <>
      <SiteLink />
      <SearchForm handle={owner.handle} q={q} />
      <main>
        <h1>Search</h1>
        <p className="meta">
          {q ? (results.length > 0 ? "Blogs" : "No blog") : "Type words to find the blogs"} of <a href={`/${owner.handle}`}>{owner.name}</a>
          {q && <> matching “{q}”</>}
        </p>
        {results.length > 0 && (
          <ul className="list">
            {results.map((result) => (
              <li key={result.blogSlug}>
                <h2>
                  <a href={`/${owner.handle}/${result.blogSlug}`}>{result.title}</a>
                </h2>
                {result.snippet && <Snippet text={result.snippet} />}
                <p className="meta">
                  <time dateTime={result.publishedAt.toISOString()}>{formatDate(result.publishedAt.toISOString())}</time>
                </p>
              </li>
            ))}
          </ul>
        )}
        {(number > 1 || hasOlder) && (
          <nav aria-label="Pages" className="pages">
            {number > 1 ? <a href={searchResultsPath(owner.handle, q, number - 1)}>← Newer</a> : <span />}
            <span>Page {number}</span>
            {hasOlder ? <a href={searchResultsPath(owner.handle, q, number + 1)}>Older →</a> : <span />}
          </nav>
        )}
        </main>
      </>,
    );
}

/**
 * Where the subscribe form leads (docs/public-blog.md, Subscribe form): the same page whatever
 * address was sent, so it says nothing of any address. Subscriptions open with the newsletter.
 */
export function renderSubscribePage(origin: string, { owner, publicationTitle }: { owner: Author; publicationTitle: string }): string {
  return page(
    { title: `Subscribe · ${publicationTitle}`, description: `Subscribe to ${publicationTitle}`, canonical: `${origin}/${owner.handle}/subscribe`, noindex: true },
    <>
      <SiteLink />
      <main>
        <h1>Subscriptions are not open yet</h1>
        <p className="lede">{publicationTitle} does not send posts by email yet. Nothing was saved: once subscriptions open, subscribe again from any page.</p>
        <p>
          Meanwhile, follow the feeds of <a href={`/${owner.handle}`}>{publicationTitle}</a>.
        </p>
        <FeedLinks page={feedPage(origin, owner.handle)} />
      </main>
    </>,
  );
}

/** A search longer than the API's `q` allows (400): the search box again, and why. */
export function renderSearchTooLongPage(handle: string): string {
  return page(
    { title: `Search too long · ${SITE_NAME}`, description: `A search is at most ${MAX_SEARCH_LENGTH} characters.`, robots: "noindex, nofollow" },
    <>
      <SiteLink />
      <SearchForm handle={handle} />
      <main>
        <h1>Search too long</h1>
        <p className="lede">A search is at most {MAX_SEARCH_LENGTH} characters. Try fewer words.</p>
        </main>
      </>,
    );
}

/** A form's post the site cannot read (docs/public-blog.md, Subscribe form): what to do instead. */
export function renderBadFormPage(problem: string, back: string): string {
  return page(
    { title: `Not sent · ${SITE_NAME}`, description: problem, noindex: true },
    <>
      <SiteLink />
      <main>
        <h1>Not sent</h1>
        <p className="lede">{problem}</p>
        <p>
          <a href={back}>Go back</a>
        </p>
      </main>
    </>,
  );
}

/** The public site's 404: nothing says whether the account, the blog or the tag exists. */
export function renderNotFoundPage(): string {
  return page(
    { title: `Not found · ${SITE_NAME}`, description: "This page does not exist, or is not public.", robots: "noindex, nofollow" },
    <>
      <SiteLink />
      <main>
        <h1>Not found</h1>
        <p className="lede">This page does not exist, or is not public.</p>
        <p>
          <a href="/">Go to {SITE_NAME}</a>
        </p>
      </main>
    </>,
  );
}
