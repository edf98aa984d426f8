import "server-only";
import type { ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { formatDate, formatDateTime } from "~/lib/format";
import { imagePath, type ImageFormat, type ImageReference } from "~/shared/images";
import { CARD_COVER_SIZES, READER_COLUMN_SIZES, responsivePicture } from "~/shared/responsive-images";
import { tagSlug } from "~/shared/tags";
import { feedPage } from "./feeds";
import { pathUnderHome, urlUnderHome } from "./home";
import { READER_CSS } from "./reader-style";
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
  /** A preview is never indexed. */
  noindex?: boolean;
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
function shareImage(home: string, blog: { blogSlug: string; cover: ImageReference | null }): ShareImage {
  const { cover } = blog;
  if (cover && CARD_FORMATS.includes(cover.format)) return { url: new URL(home).origin + imagePath(cover), width: cover.width, height: cover.height };
  return { url: urlUnderHome(home, `/${blog.blogSlug}/${SHARE_IMAGE_FILE}`), ...SHARE_IMAGE_SIZE };
}

/**
 * One of our images as a <picture> of its variants (src/shared/responsive-images.ts), decorative
 * (alt=""), `sizes` the width its place gives it. Lazy below the fold; `priority` for the one above
 * it, fetched first.
 */
function Picture({ image, sizes, className, priority = false }: { image: ImageReference; sizes: string; className: string; priority?: boolean }) {
  const { sources, img } = responsivePicture(image);
  const loading = priority ? ({ fetchPriority: "high" } as const) : ({ loading: "lazy", decoding: "async" } as const);
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
        {head.noindex && <meta name="robots" content="noindex, nofollow" />}
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

/** `homePath`: the path of the publication's home (./home.ts), which its links are under. */
function Article({ article, homePath, banner }: { article: ArticleView; homePath: string; banner?: ReactNode }) {
  const { title, description, html, tags, publishedAt, cover, author } = article;
  return (
    <>
      {banner}
      <SiteLink />
      <main>
        <article>
          {cover && <Picture image={cover} sizes={READER_COLUMN_SIZES} className="cover" priority />}
          <header className="post">
            <h1>{title}</h1>
            {description && <p className="lede">{description}</p>}
            <p className="byline">
              By <a href={homePath}>{author.name}</a> ·{" "}
              {publishedAt ? <time dateTime={publishedAt.toISOString()}>{formatDate(publishedAt.toISOString())}</time> : "Not published yet"}
            </p>
            {tags.length > 0 && (
              <ul aria-label="Tags" className="tags">
                {tags.map((tag) => (
                  <li key={tag}>
                    <a href={`${homePath.replace(/\/$/, "")}/tags/${tagSlug(tag)}`}>{tag}</a>
                  </li>
                ))}
              </ul>
            )}
          </header>
          <div className="markdown" dangerouslySetInnerHTML={{ __html: html }} />
        </article>
      </main>
    </>
  );
}

/** A public blog: `seoTitle`/`seoDescription` for its head when set, its share image, JSON-LD BlogPosting. */
export function renderPostPage(home: string, article: ArticleView & { blogSlug: string; seoTitle: string; seoDescription: string; updatedAt: Date }): string {
  const { author } = article;
  const url = urlUnderHome(home, `/${article.blogSlug}`);
  const title = article.seoTitle || article.title;
  // Never the site's generic description: a blog without one is described by its title.
  const description = article.seoDescription || article.description || `${article.title}, by ${author.name}`;
  const image = shareImage(home, article);
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
    author: { "@type": "Person", name: author.name, url: urlUnderHome(home) },
    publisher: { "@type": "Organization", name: SITE_NAME, url: urlUnderHome(home) },
    mainEntityOfPage: { "@type": "WebPage", "@id": url },
    ...(article.tags.length > 0 && { keywords: article.tags.join(", ") }),
  };
  return page(
    {
      title,
      description,
      canonical: url,
      feeds: { page: feedPage(home), name: author.name },
      openGraph: { type: "article", image, publishedTime, modifiedTime, author: author.name },
      jsonLd,
    },
    <Article article={article} homePath={pathUnderHome(home)} />,
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
  return page({ title: `Preview: ${article.title} · ${SITE_NAME}`, description: article.description || article.title, noindex: true }, <Article article={article} homePath={`/${article.author.handle}`} banner={banner} />);
}

export interface IndexView {
  owner: Author;
  /** A tag's page: the tag as its newest blog writes it. */
  tag: { name: string; slug: string } | null;
  page: number;
  hasOlder: boolean;
  blogs: { title: string; blogSlug: string; description: string; publishedAt: Date; cover: ImageReference | null }[];
}

/** The address of page `number` of an owner's index or tag page under their home: `?page=N` from the second. */
export function indexPagePath(home: string, number: number, tag: { slug: string } | null): string {
  return pathUnderHome(home, `${tag ? `/tags/${tag.slug}` : ""}${number === 1 ? "" : `?page=${number}`}`);
}

/** An owner's public blogs (or those with a tag), newest first, a page at a time. */
export function renderIndexPage(home: string, { owner, tag, page: number, hasOlder, blogs }: IndexView): string {
  const name = tag ? `${tag.name}, by ${owner.name} (@${owner.handle})` : `${owner.name} (@${owner.handle})`;
  const title = number === 1 ? name : `${name}, page ${number}`;
  const description = tag ? `Public blogs of ${owner.name} tagged ${tag.name}` : `Public blogs of ${owner.name}`;
  const feeds = feedPage(home, tag ?? undefined);
  const head: Head = {
    title,
    description,
    canonical: new URL(home).origin + indexPagePath(home, number, tag),
    feeds: { page: feeds, name: tag ? `${tag.name}, by ${owner.name}` : owner.name },
    openGraph: { type: "website", image: shareImage(home, blogs[0]!) },
  };
  return page(
    head,
    <>
      <SiteLink />
      <main>
        {tag ? (
          <>
            <h1>{tag.name}</h1>
            <p className="meta">
              Tagged by <a href={pathUnderHome(home)}>{owner.name}</a>
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
                <a href={pathUnderHome(home, `/${blog.blogSlug}`)}>{blog.title}</a>
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
            {number > 1 ? <a href={indexPagePath(home, number - 1, tag)}>← Newer</a> : <span />}
            <span>Page {number}</span>
            {hasOlder ? <a href={indexPagePath(home, number + 1, tag)}>Older →</a> : <span />}
          </nav>
        )}
        <FeedLinks page={feeds} />
      </main>
    </>,
  );
}

/** The public site's 404: nothing says whether the account, the blog or the tag exists. */
export function renderNotFoundPage(): string {
  return page(
    { title: `Not found · ${SITE_NAME}`, description: "This page does not exist, or is not public.", noindex: true },
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
