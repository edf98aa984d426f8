import "server-only";
import { Fragment, type ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { formatDate, formatPublicMoment } from "~/lib/format";
import { MAX_SEARCH_LENGTH } from "~/shared/blog-fields";
import { contentTypeOf, imagePath, thumbnailFile, type ImageFormat, type ImageReference } from "~/shared/images";
import { publicationHref, socialLinkName } from "~/shared/publication";
import { CARD_COVER_SIZES, READER_COLUMN_SIZES, responsivePicture } from "~/shared/responsive-images";
import { countWords, readingMinutes } from "~/shared/reading-time";
import type { SubscriberStatus } from "~/shared/subscribers";
import { tagSlug } from "~/shared/tags";
import { SNIPPET_MARK_END, SNIPPET_MARK_START, type SearchResult } from "../blogs/search-public-blogs";
import { feedPage } from "./feeds";
import { authorPageHref } from "./home";
import { Avatar, PostEnd, SubscribeForm, type PostEndView } from "./post-end";
import { dateStyle, type PublicationView } from "./publication-view";
import { READER_CSS } from "./reader-style";
import { FEED_FORMATS, SHARE_IMAGE_FILE, type FeedFormat } from "./routes";
import { SHARE_IMAGE_SIZE } from "./share-image";

/**
 * The public site's pages (docs/public-blog.md) as plain HTML: React renders them once per change
 * to static markup, with no script at all, so they work without JavaScript and a reader's browser
 * loads no framework. One stylesheet, inlined (./reader-style.ts), and the publication's accent
 * (./accent.ts). Every page is its publication's (docs/publication.md): its header, navigation,
 * footer, language, time zone and name; every link is built from its home (PublicationView).
 */

/** How a page names one of a post's authors: their name, and where it links (./post-end.tsx, AuthorView). */
export interface Byline {
  name: string;
  href: string;
}

interface Head {
  /** The page's own name; the publication's follows it ("Post – Publication"), or stands alone (its home). */
  title: string | null;
  description: string;
  /** Absolute; also og:url. Absent on pages that are nobody's address (a preview, a 404). */
  canonical?: string;
  /** A preview is never indexed; nor is a search, whose links crawlers may still follow (`followLinks`). */
  noindex?: boolean;
  followLinks?: boolean;
  feeds?: { page: string; name: string };
  openGraph?: { type: "article" | "website" | "profile"; title: string; image?: ShareImage; publishedTime?: string; modifiedTime?: string; author?: string };
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

/** Only pictures over https load under the pages' CSP (img-src). */
const isHttpsImage = (value: string) => URL.canParse(value) && new URL(value).protocol === "https:";

/** A blog's address on its publication. */
const postHref = (site: PublicationView, blogSlug: string) => `${site.home}/${blogSlug}`;
/** A tag's page on its publication. */
const tagHref = (site: PublicationView, slug: string) => `${site.home}/tags/${slug}`;

/** A blog's share image (docs/public-blog.md): its cover's original when cards show its format, else the one drawn for it (./share-image.tsx). */
function shareImage(site: PublicationView, blog: { blogSlug: string; cover: ImageReference | null }): ShareImage {
  const { cover } = blog;
  if (cover && CARD_FORMATS.includes(cover.format)) return { url: site.origin + imagePath(cover), width: cover.width, height: cover.height };
  return { url: `${postHref(site, blog.blogSlug)}/${SHARE_IMAGE_FILE}`, ...SHARE_IMAGE_SIZE };
}

/** The publication's full `<title>`: "Page – Publication" (an en dash), the publication's alone on its home. */
const fullTitle = (title: string | null, site: PublicationView | null) => (site ? (title ? `${title} – ${site.title}` : site.title) : (title ?? ""));


/** A small file of one of our images for the header and the tab (its thumbnail, made with the upload), else its original. */
const smallImagePath = (image: ImageReference) => imagePath(image, thumbnailFile(image)?.name);

/** The logo's height in the header (CSS px); its width follows its proportions, up to LOGO_MAX_WIDTH. */
const LOGO_HEIGHT = 40;
const LOGO_MAX_WIDTH = 200;

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

function Document({ site, head, children }: { site: PublicationView | null; head: Head; children: ReactNode }) {
  const { description, canonical, openGraph, feeds } = head;
  const title = fullTitle(head.title, site);
  return (
    <html lang={site?.language ?? "en"}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{title}</title>
        <meta name="description" content={description} />
        {head.noindex && <meta name="robots" content={head.followLinks ? "noindex" : "noindex, nofollow"} />}
        {canonical && <link rel="canonical" href={canonical} />}
        {/* Without an icon of its own, an empty one: browsers would otherwise show the app's /favicon.ico. */}
        {site?.icon ? <link rel="icon" type={contentTypeOf(site.icon.format)} href={smallImagePath(site.icon)} /> : <link rel="icon" href="data:," />}
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
        {openGraph && canonical && site && (
          <>
            <meta property="og:type" content={openGraph.type} />
            <meta property="og:site_name" content={site.title} />
            <meta property="og:title" content={openGraph.title} />
            <meta property="og:description" content={description} />
            <meta property="og:url" content={canonical} />
            {site.language !== "en" && <meta property="og:locale" content={site.language.replace("-", "_")} />}
            {openGraph.image && (
              <>
                <meta property="og:image" content={openGraph.image.url} />
                <meta property="og:image:width" content={String(openGraph.image.width)} />
                <meta property="og:image:height" content={String(openGraph.image.height)} />
              </>
            )}
            {openGraph.publishedTime && <meta property="article:published_time" content={openGraph.publishedTime} />}
            {openGraph.modifiedTime && <meta property="article:modified_time" content={openGraph.modifiedTime} />}
            {openGraph.author && <meta property="article:author" content={openGraph.author} />}
            <meta name="twitter:card" content={openGraph.image ? "summary_large_image" : "summary"} />
            <meta name="twitter:title" content={openGraph.title} />
            <meta name="twitter:description" content={description} />
            {openGraph.image && <meta name="twitter:image" content={openGraph.image.url} />}
          </>
        )}
        {head.jsonLd && <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: scriptJson(head.jsonLd) }} />}
        <style dangerouslySetInnerHTML={{ __html: READER_CSS }} />
        {site?.accent && <style dangerouslySetInnerHTML={{ __html: site.accent.css }} />}
      </head>
      <body>
        <div className="page">
          <a className="skip" href="#main">
            Skip to content
          </a>
          {site && <Masthead site={site} />}
          {children}
          {site && <SiteFooter site={site} feeds={feeds?.page} />}
        </div>
      </body>
    </html>
  );
}

/** The publication's header: its logo and title, linking to its home, and its navigation. */
function Masthead({ site }: { site: PublicationView }) {
  const { logo } = site;
  const logoWidth = logo && Math.min(LOGO_MAX_WIDTH, Math.round((LOGO_HEIGHT * logo.width) / logo.height));
  return (
    <header className="masthead">
      <a className="brand" href={site.home}>
        {logo && logoWidth && (
          // eslint-disable-next-line @next/next/no-img-element -- static HTML without Next's runtime; decorative, the title follows it.
          <img src={smallImagePath(logo)} alt="" width={logoWidth} height={Math.round((logoWidth * logo.height) / logo.width)} />
        )}
        <span>{site.title}</span>
      </a>
      {site.navigation.length > 0 && (
        <nav aria-label="Site">
          <ul>
            {site.navigation.map((link, index) => (
              <li key={index}>
                <a href={publicationHref(site.home, link.url)}>{link.label}</a>
              </li>
            ))}
          </ul>
        </nav>
      )}
      <SearchForm home={site.home} />
    </header>
  );
}

/** Page `number` of the results of a search of the publication (docs/public-blog.md, Search). */
function searchResultsHref(home: string, q: string, number: number): string {
  const query = new URLSearchParams({ q });
  if (number > 1) query.set("page", String(number));
  return `${home}/search?${query}`;
}

/** The publication's search box: a GET form, so it works without script. */
function SearchForm({ home, q = "" }: { home: string; q?: string }) {
  return (
    <form role="search" className="search" action={`${home}/search`} method="get">
      <label htmlFor="search-q">Search posts</label>
      <input id="search-q" type="search" name="q" defaultValue={q} maxLength={MAX_SEARCH_LENGTH} />
      <button type="submit">Search</button>
    </form>
  );
}

/** The publication's footer: its own text (Markdown, sanitized), its social links and the page's feeds. */
function SiteFooter({ site, feeds }: { site: PublicationView; feeds?: string }) {
  return (
    <footer className="site-footer">
      {site.footerHtml && <div className="markdown" dangerouslySetInnerHTML={{ __html: site.footerHtml }} />}
      {site.socialLinks.length > 0 && (
        <ul aria-label="Elsewhere" className="links">
          {site.socialLinks.map((url) => (
            <li key={url}>
              <a href={url} rel="me">
                {socialLinkName(url)}
              </a>
            </li>
          ))}
        </ul>
      )}
      {feeds && (
        <ul aria-label="Feeds" className="links">
          {(Object.keys(FEED_FORMATS) as FeedFormat[]).map((format) => (
            <li key={format}>
              <a href={`${feeds}/${FEED_FORMATS[format].file}`}>{FEED_TITLES[format]}</a>
            </li>
          ))}
        </ul>
      )}
    </footer>
  );
}

const page = (site: PublicationView | null, head: Head, body: ReactNode) => `<!DOCTYPE html>${renderToStaticMarkup(<Document site={site} head={head}>{body}</Document>)}`;

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
  /** Never empty, the primary first. */
  authors: Byline[];
}

/** The authors' names, each linking to their page: "A", "A and B", "A, B and C". */
function Names({ authors }: { authors: Byline[] }) {
  return authors.map((author, index) => (
    <Fragment key={author.href}>
      {index === 0 ? null : index === authors.length - 1 ? " and " : ", "}
      <a href={author.href}>{author.name}</a>
    </Fragment>
  ));
}

/** `end`: what follows the post's body on its public page (./post-end.tsx). */
function Article({ site, article, banner, end }: { site: PublicationView; article: ArticleView; banner?: ReactNode; end?: ReactNode }) {
  const { title, description, html, tags, publishedAt, cover, authors } = article;
  return (
    <main id="main">
      {banner}
      <article>
        {cover && <Picture image={cover} sizes={READER_COLUMN_SIZES} className="cover" priority />}
        <header className="post">
          <h1>{title}</h1>
          {description && <p className="lede">{description}</p>}
          <p className="byline">
            By <Names authors={authors} /> ·{" "}
            {publishedAt ? <time dateTime={publishedAt.toISOString()}>{formatDate(publishedAt.toISOString(), dateStyle(site))}</time> : "Not published yet"}
          </p>
          {tags.length > 0 && (
            <ul aria-label="Tags" className="tags">
              {tags.map((tag) => (
                <li key={tag}>
                  <a href={tagHref(site, tagSlug(tag))}>{tag}</a>
                </li>
              ))}
            </ul>
          )}
        </header>
        <div className="markdown" dangerouslySetInnerHTML={{ __html: html }} />
      </article>
      {end}
    </main>
  );
}

/** schema.org's Person of an author, at their page. */
const person = (author: Byline) => ({ "@type": "Person", name: author.name, url: author.href });

/**
 * A public blog: `seoTitle`/`seoDescription` for its head when set, its share image, JSON-LD
 * BlogPosting; after its body, `end` (./post-end.tsx).
 */
export function renderPostPage(site: PublicationView, article: ArticleView & { blogSlug: string; seoTitle: string; seoDescription: string; updatedAt: Date }, end: PostEndView): string {
  const { authors } = article;
  const [primary] = authors;
  const url = postHref(site, article.blogSlug);
  const title = article.seoTitle || article.title;
  // Never the site's generic description: a blog without one is described by its title.
  const description = article.seoDescription || article.description || `${article.title}, by ${primary!.name}`;
  const image = shareImage(site, article);
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
    inLanguage: site.language,
    // One author as an object, as before authors; several as a list, the primary first.
    author: authors.length === 1 ? person(primary!) : authors.map(person),
    publisher: { "@type": "Organization", name: site.title, url: site.home, ...(site.logo && { logo: { "@type": "ImageObject", url: site.origin + imagePath(site.logo) } }) },
    mainEntityOfPage: { "@type": "WebPage", "@id": url },
    ...(article.tags.length > 0 && { keywords: article.tags.join(", ") }),
  };
  return page(
    site,
    {
      title,
      description,
      canonical: url,
      feeds: { page: feedPage(site.home), name: site.title },
      openGraph: { type: "article", title, image, publishedTime, modifiedTime, author: primary!.name },
      jsonLd,
    },
    <Article site={site} article={article} end={<PostEnd view={end} />} />,
  );
}

/** A blog through its secret preview link, exactly as its public page will look, below a banner; never indexed. */
export function renderPreviewPage(site: PublicationView, article: ArticleView, expiresAt: Date): string {
  const banner = (
    <p role="note" className="note">
      <strong>Preview.</strong> This is how the blog will look once published; only people with this link can see it. The link works until{" "}
      {formatPublicMoment(expiresAt.toISOString(), dateStyle(site))}.
    </p>
  );
  return page(site, { title: `Preview: ${article.title}`, description: article.description || article.title, noindex: true }, <Article site={site} article={article} banner={banner} />);
}

/** A post on an index: its card, or the newest's larger one. */
export interface PostSummary {
  title: string;
  blogSlug: string;
  description: string;
  publishedAt: Date;
  cover: ImageReference | null;
  readingMinutes: number;
}

/** A listed blog as its card shows it: its reading time instead of its Markdown. */
export function postSummary<T extends Omit<PostSummary, "readingMinutes"> & { content: string }>({ content, ...blog }: T): PostSummary {
  return { ...blog, readingMinutes: readingMinutes(countWords(content)) };
}

export interface IndexView {
  /** A tag's page: the tag as its newest blog writes it. */
  tag: { name: string; slug: string } | null;
  page: number;
  hasOlder: boolean;
  /** None only on the first page of a publication with no public post yet. */
  blogs: PostSummary[];
}

/** The address of page `number` of a publication's home or tag page: `?page=N` from the second. */
export function indexPageHref(site: PublicationView, number: number, tag: { slug: string } | null): string {
  // The home as a URL writes it: a domain's root is "https://domain/".
  const base = tag ? tagHref(site, tag.slug) : new URL(site.home).href;
  return number === 1 ? base : `${base}?page=${number}`;
}

function PostMeta({ site, blog }: { site: PublicationView; blog: PostSummary }) {
  return (
    <p className="meta">
      <time dateTime={blog.publishedAt.toISOString()}>{formatDate(blog.publishedAt.toISOString(), dateStyle(site))}</time>
      {blog.readingMinutes > 0 && <> · {blog.readingMinutes} min read</>}
    </p>
  );
}

/**
 * A post on an index: featured (the newest, first on the home: its cover across the column, loaded
 * first) or as a card (its cover across the card; loaded first when it leads the page).
 */
function PostTeaser({ site, blog, featured = false, priority = featured }: { site: PublicationView; blog: PostSummary; featured?: boolean; priority?: boolean }) {
  return (
    <article className={featured ? "featured" : "card"}>
      {blog.cover && <Picture image={blog.cover} sizes={featured ? READER_COLUMN_SIZES : CARD_COVER_SIZES} className={featured ? "cover" : "card-cover"} priority={priority} />}
      <h2>
        <a href={postHref(site, blog.blogSlug)}>{blog.title}</a>
      </h2>
      {blog.description && <p className="excerpt">{blog.description}</p>}
      <PostMeta site={site} blog={blog} />
    </article>
  );
}

/** A publication's home (its description, the newest post featured, then cards) or a tag's page (cards), a page at a time. */
export function renderIndexPage(site: PublicationView, { tag, page: number, hasOlder, blogs }: IndexView): string {
  const name = tag ? tag.name : null;
  const title = number === 1 ? name : `${name ? `${name}, page` : "Page"} ${number}`;
  const description = tag ? `Posts tagged ${tag.name} in ${site.title}` : site.description || `Posts of ${site.title}`;
  const feeds = feedPage(site.home, tag ?? undefined);
  const featured = !tag && number === 1 ? blogs[0] : undefined;
  const rest = featured ? blogs.slice(1) : blogs;
  const head: Head = {
    title,
    description,
    canonical: indexPageHref(site, number, tag),
    ...(blogs.length > 0 && { feeds: { page: feeds, name: tag ? `${tag.name} – ${site.title}` : site.title } }),
    openGraph: { type: "website", title: fullTitle(title, site), ...(blogs[0] && { image: shareImage(site, blogs[0]) }) },
  };
  return page(
    site,
    head,
    <main id="main">
      <div className="intro">
        {tag && <p className="eyebrow">Tag</p>}
        <h1>{tag ? tag.name : site.title}</h1>
        {!tag && number === 1 && site.description && <p className="lede">{site.description}</p>}
        {number > 1 && <p className="meta">Page {number}</p>}
      </div>
      {blogs.length === 0 && <p className="empty">No posts yet. Come back soon.</p>}
      {featured && <PostTeaser site={site} blog={featured} featured />}
      {rest.length > 0 && (
        <ul className="cards">
          {rest.map((blog, index) => (
            <li key={blog.blogSlug}>
              <PostTeaser site={site} blog={blog} priority={!featured && index === 0} />
            </li>
          ))}
        </ul>
      )}
      {(number > 1 || hasOlder) && (
        <nav aria-label="Pages" className="pages">
          {number > 1 ? <a href={indexPageHref(site, number - 1, tag)}>← Newer</a> : <span />}
          <span>Page {number}</span>
          {hasOlder ? <a href={indexPageHref(site, number + 1, tag)}>Older →</a> : <span />}
        </nav>
      )}
      <SubscribeForm home={site.home} publicationTitle={site.title} />
    </main>,
  );
}

/** An author's page (docs/public-blog.md, Authors): who they are, and a page of their posts in the publication. */
export interface AuthorPageView {
  author: { name: string; handle: string; image: string | null; bio: string };
  page: number;
  hasOlder: boolean;
  /** Never empty: an author without a public post has no page. */
  blogs: PostSummary[];
}

/** The address of page `number` of an author's page: `?page=N` from the second. */
const authorPageNumberHref = (site: PublicationView, handle: string, number: number) => {
  const base = authorPageHref(site.home, handle);
  return number === 1 ? base : `${base}?page=${number}`;
};

/**
 * An author's page: their picture, name and bio, then their public posts in the publication as
 * cards, newest first, 20 a page; its feeds are theirs. JSON-LD ProfilePage of a Person.
 */
export function renderAuthorPage(site: PublicationView, { author, page: number, hasOlder, blogs }: AuthorPageView): string {
  const home = authorPageHref(site.home, author.handle);
  const title = number === 1 ? author.name : `${author.name}, page ${number}`;
  const description = author.bio || `Posts by ${author.name} in ${site.title}`;
  const head: Head = {
    title,
    description,
    canonical: authorPageNumberHref(site, author.handle, number),
    feeds: { page: home, name: `${author.name} – ${site.title}` },
    openGraph: { type: "profile", title: fullTitle(title, site) },
    jsonLd: {
      "@context": "https://schema.org",
      "@type": "ProfilePage",
      url: home,
      inLanguage: site.language,
      mainEntity: {
        "@type": "Person",
        name: author.name,
        url: home,
        ...(author.bio && { description: author.bio }),
        ...(author.image && isHttpsImage(author.image) && { image: author.image }),
      },
    },
  };
  return page(
    site,
    head,
    <main id="main">
      <div className="intro author-profile">
        <Avatar name={author.name} image={author.image} size={96} />
        <div>
          <p className="eyebrow">Author</p>
          <h1>{author.name}</h1>
          {author.bio && <p className="lede bio">{author.bio}</p>}
          {number > 1 && <p className="meta">Page {number}</p>}
        </div>
      </div>
      <h2 className="section-title">Posts by {author.name}</h2>
      <ul className="cards">
        {blogs.map((blog, index) => (
          <li key={blog.blogSlug}>
            <PostTeaser site={site} blog={blog} priority={index === 0} />
          </li>
        ))}
      </ul>
      {(number > 1 || hasOlder) && (
        <nav aria-label="Pages" className="pages">
          {number > 1 ? <a href={authorPageNumberHref(site, author.handle, number - 1)}>← Newer</a> : <span />}
          <span>Page {number}</span>
          {hasOlder ? <a href={authorPageNumberHref(site, author.handle, number + 1)}>Older →</a> : <span />}
        </nav>
      )}
      <SubscribeForm home={site.home} publicationTitle={site.title} />
    </main>,
  );
}

export interface SearchView {
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
    <p className="excerpt">
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

/** The publication's public blogs matching a search, newest first, a page at a time; never indexed. */
export function renderSearchPage(site: PublicationView, { q, page: number, hasOlder, results }: SearchView): string {
  const searched = q ? `Search: ${q}${number > 1 ? `, page ${number}` : ""}` : "Search";
  return page(
    site,
    { title: searched, description: `Search the posts of ${site.title}`, noindex: true, followLinks: true },
    <main id="main">
      <div className="intro">
        <h1>Search</h1>
        <SearchForm home={site.home} q={q} />
        <p className="meta" role="status">
          {q ? (results.length > 0 ? <>Posts matching “{q}”</> : <>No post matches “{q}”</>) : "Type words to find posts"}
        </p>
      </div>
      {results.length > 0 && (
        <ul className="cards results">
          {results.map((result) => (
            <li key={result.blogSlug}>
              <article className="card">
                <h2>
                  <a href={postHref(site, result.blogSlug)}>{result.title}</a>
                </h2>
                {result.snippet && <Snippet text={result.snippet} />}
                <p className="meta">
                  <time dateTime={result.publishedAt.toISOString()}>{formatDate(result.publishedAt.toISOString(), dateStyle(site))}</time>
                </p>
              </article>
            </li>
          ))}
        </ul>
      )}
      {(number > 1 || hasOlder) && (
        <nav aria-label="Pages" className="pages">
          {number > 1 ? <a href={searchResultsHref(site.home, q, number - 1)}>← Newer</a> : <span />}
          <span>Page {number}</span>
          {hasOlder ? <a href={searchResultsHref(site.home, q, number + 1)}>Older →</a> : <span />}
        </nav>
      )}
    </main>,
  );
}

/** A search longer than the API's `q` allows (400): the search box again, and why. Names nobody. */
export function renderSearchTooLongPage(home: string): string {
  return page(
    null,
    { title: "Search too long", description: `A search is at most ${MAX_SEARCH_LENGTH} characters.`, noindex: true },
    <main id="main">
      <h1>Search too long</h1>
      <p className="lede">A search is at most {MAX_SEARCH_LENGTH} characters. Try fewer words.</p>
      <SearchForm home={home} />
    </main>,
  );
}

/**
 * Where the subscribe form leads (docs/public-blog.md, Subscribe form): the same page whatever
 * address was sent and whatever became of it, so it says nothing of any address: what to expect.
 */
export function renderSubscribePage(site: PublicationView): string {
  return page(
    site,
    { title: "Check your inbox", description: `Subscribe to ${site.title}`, canonical: `${site.home}/subscribe`, noindex: true, feeds: { page: feedPage(site.home), name: site.title } },
    <main id="main">
      <h1>Check your inbox</h1>
      <p className="lede">
        If the address can subscribe to {site.title}, an email asking you to confirm is on its way. Follow its link to start receiving new posts: nothing is
        sent until you do.
      </p>
      <p>
        The link is valid for 7 days. No email within a few minutes? Look in your spam folder, or send the form again in 10 minutes. Already subscribed? There
        is nothing more to do.
      </p>
      <p>
        <a href={site.home}>Back to {site.title}</a>
      </p>
    </main>,
  );
}

/** A subscriber's page (docs/newsletters.md, Subscribing): the publication's, never indexed. */
const subscriberPage = (site: PublicationView, title: string, body: ReactNode) => page(site, { title, description: `Subscription to ${site.title}`, noindex: true }, <main id="main">{body}</main>);

/** A confirmation link followed in time: the subscriber is active; `manage`, their unsubscribe link. */
export function renderSubscriptionConfirmedPage(site: PublicationView, manage: string): string {
  return subscriberPage(
    site,
    "Subscribed",
    <>
      <h1>You&apos;re subscribed to {site.title}</h1>
      <p className="lede">New posts will arrive in your inbox. Every email has a link to unsubscribe.</p>
      <p>
        <a href={site.home}>Read {site.title}</a> · <a href={manage}>Manage your subscription</a>
      </p>
    </>,
  );
}

/** A confirmation link that is not (or no longer) one: `expired` past its 7 days; the form, to subscribe again. */
export function renderConfirmationLinkPage(site: PublicationView, problem: "expired" | "unknown"): string {
  return subscriberPage(
    site,
    problem === "expired" ? "Link expired" : "Link not valid",
    <>
      <h1>{problem === "expired" ? "This confirmation link has expired" : "This confirmation link is not valid"}</h1>
      <p className="lede">
        {problem === "expired"
          ? "Confirmation links work for 7 days. Subscribe again below for a new one."
          : "It may have been used already, or replaced by a newer one: only the latest link works. If you are not subscribed yet, subscribe again below."}
      </p>
      <SubscribeForm home={site.home} publicationTitle={site.title} />
    </>,
  );
}

/** What a subscriber's unsubscribe page shows: their address (masked), its status, and where its button posts. */
export interface ManageSubscriptionView {
  maskedEmail: string;
  status: SubscriberStatus;
  /** The unsubscribe link itself: its form posts there. */
  action: string;
  /** Just unsubscribed by this request (a POST). */
  unsubscribedNow: boolean;
}

const STATUS_TEXT: Record<SubscriberStatus, string> = {
  pending: "waiting for its confirmation: no posts are sent yet",
  active: "subscribed: new posts are emailed to it",
  unsubscribed: "unsubscribed: no posts are emailed to it",
  bounced: "not receiving posts: emails to it could not be delivered",
};

/**
 * The unsubscribe and manage page (docs/newsletters.md, Subscribing): the address and its status; a
 * button (a form posting to the same link, no script) while posts are or may be sent; once
 * unsubscribed, the subscribe form to come back (through a new confirmation).
 */
export function renderManageSubscriptionPage(site: PublicationView, { maskedEmail, status, action, unsubscribedNow }: ManageSubscriptionView): string {
  return subscriberPage(
    site,
    unsubscribedNow ? "Unsubscribed" : "Your subscription",
    <>
      <h1>{unsubscribedNow ? `You're unsubscribed from ${site.title}` : `Your subscription to ${site.title}`}</h1>
      <p className="lede">
        {maskedEmail} is {STATUS_TEXT[status]}.
      </p>
      {(status === "active" || status === "pending") && (
        <section aria-labelledby="unsubscribe" className="subscribe">
          <h2 id="unsubscribe">Stop the emails</h2>
          <p className="meta">One click: no more posts from {site.title} by email.</p>
          <form method="post" action={action}>
            <input type="hidden" name="List-Unsubscribe" value="One-Click" />
            <button type="submit">Unsubscribe</button>
          </form>
        </section>
      )}
      {status === "unsubscribed" && <SubscribeForm home={site.home} publicationTitle={site.title} />}
      <p>
        <a href={site.home}>Back to {site.title}</a>
      </p>
    </>,
  );
}

/** A form's post the site cannot read (docs/public-blog.md, Subscribe form): what to do instead. Names nobody. */
export function renderBadFormPage(problem: string, back: string): string {
  return page(
    null,
    { title: "Not sent", description: problem, noindex: true },
    <main id="main">
      <h1>Not sent</h1>
      <p className="lede">{problem}</p>
      <p>
        <a href={back}>Go back</a>
      </p>
    </main>,
  );
}

/**
 * The public site's 404. Nobody's address: nothing says whether the blog or the tag exists, and
 * nothing names the app (docs/publication.md); under a publication's address, its header and
 * footer, and a way to its home.
 */
export function renderNotFoundPage(site: PublicationView | null = null): string {
  return page(
    site,
    { title: "Not found", description: "This page does not exist, or is not public.", noindex: true },
    <main id="main">
      <h1>Not found</h1>
      <p className="lede">This page does not exist, or is not public.</p>
      {site && (
        <p>
          <a href={site.home}>Go to the home page of {site.title}</a>
        </p>
      )}
    </main>,
  );
}
