import "server-only";
import { formatDate } from "~/lib/format";
import type { LinkedBlog } from "../blogs/public-blogs";
import { dateStyle, type PublicationView } from "./publication-view";

/**
 * What ends a post's page, below its body (docs/public-blog.md, The end of a post): who wrote it,
 * the posts before and after it, related posts and the subscribe form. Plain markup, no script;
 * their styles are in ./reader-style.ts. Links are under the publication's home (`site.home`).
 */

/**
 * One of a post's authors as its page shows them (docs/public-blog.md, Authors): their name
 * linking to `href` (their author page; the publication's home for a post whose only author
 * founded it, as before authors), their picture and bio. `aboutPublication`: the line about the
 * publication follows the name (its only author's post, founder of it).
 */
export interface AuthorView {
  name: string;
  href: string;
  /** A URL (better-auth's `image`); shown only over https. */
  image: string | null;
  /** Plain text; "" for none. */
  bio: string;
  aboutPublication?: boolean;
}

export interface PostEndView {
  site: PublicationView;
  /** The post's authors, the primary first; never empty. */
  authors: AuthorView[];
  previous: LinkedBlog | null;
  next: LinkedBlog | null;
  related: LinkedBlog[];
}

/** Up to two initials of a name ("Ada Lovelace" → "AL"), for an author without a picture. */
function initials(name: string): string {
  const letters = name
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => [...word][0]!.toUpperCase());
  return (letters.length > 1 ? letters[0]! + letters.at(-1)! : (letters[0] ?? "?"));
}

/** Only pictures over https load under the pages' CSP (img-src), and nothing else may be put in src. */
const isHttpsUrl = (value: string) => URL.canParse(value) && new URL(value).protocol === "https:";

/** A person's picture, decorative (their name follows it), or their initials without one; `size` in CSS px. */
export function Avatar({ name, image, size = 56, className = "avatar" }: { name: string; image: string | null; size?: number; className?: string }) {
  return image && isHttpsUrl(image) ? (
    // eslint-disable-next-line @next/next/no-img-element -- static markup rendered on the server: next/image has no place here
    <img className={className} src={image} alt="" width={size} height={size} loading="lazy" decoding="async" />
  ) : (
    <span aria-hidden="true" className={className}>
      {initials(name)}
    </span>
  );
}

/** One author: picture, name and what is said of them. */
function AuthorEntry({ site, author, lead }: { site: PublicationView; author: AuthorView; lead: string }) {
  // The publication's title is the owner's name until they give it another (docs/publication.md): said once.
  const about = author.aboutPublication ? [site.title === author.name ? "" : site.title, site.description].filter(Boolean).join(" — ") : "";
  return (
    <>
      <Avatar name={author.name} image={author.image} />
      <div>
        <p className="author-name">
          {lead}
          <a href={author.href}>{author.name}</a>
        </p>
        {about && <p className="meta">{about}</p>}
        {author.bio && <p className="bio">{author.bio}</p>}
      </div>
    </>
  );
}

/** Who wrote the post: its author, or its authors one under the other, the primary first. */
export function AuthorBox({ site, authors }: Pick<PostEndView, "site" | "authors">) {
  if (authors.length === 1) {
    return (
      <section aria-label="Author" className="author-box">
        <AuthorEntry site={site} author={authors[0]!} lead="Written by " />
      </section>
    );
  }
  return (
    <section aria-labelledby="post-authors" className="authors">
      <h2 id="post-authors">Written by</h2>
      <ul className="author-list">
        {authors.map((author) => (
          <li key={author.href} className="author-box">
            <AuthorEntry site={site} author={author} lead="" />
          </li>
        ))}
      </ul>
    </section>
  );
}

export function PostNavigation({ site: { home }, previous, next }: Pick<PostEndView, "site" | "previous" | "next">) {
  if (!previous && !next) return null;
  return (
    <nav aria-label="Previous and next posts" className="post-nav">
      {previous && (
        <a href={`${home}/${previous.blogSlug}`} rel="prev" className="post-nav-previous">
          <span className="post-nav-label">← Previous post</span> <span className="post-nav-title">{previous.title}</span>
        </a>
      )}
      {next && (
        <a href={`${home}/${next.blogSlug}`} rel="next" className="post-nav-next">
          <span className="post-nav-label">Next post →</span> <span className="post-nav-title">{next.title}</span>
        </a>
      )}
    </nav>
  );
}

export function RelatedPosts({ site, related }: Pick<PostEndView, "site" | "related">) {
  const { home } = site;
  if (related.length === 0) return null;
  return (
    <section aria-labelledby="related-posts" className="related">
      <h2 id="related-posts">Related posts</h2>
      <ul>
        {related.map((blog) => (
          <li key={blog.blogSlug}>
            <a href={`${home}/${blog.blogSlug}`}>{blog.title}</a>
            <time dateTime={blog.publishedAt.toISOString()}>{formatDate(blog.publishedAt.toISOString(), dateStyle(site))}</time>
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * The subscribe form (docs/public-blog.md, Subscribe form): posts `email` to `{home}/subscribe`
 * as a plain form, so it works without script; the browser checks the address's shape first.
 */
export function SubscribeForm({ home, publicationTitle }: { home: string; publicationTitle: string }) {
  return (
    <section aria-labelledby="subscribe" className="subscribe">
      <h2 id="subscribe">Subscribe to {publicationTitle}</h2>
      <p className="meta">New posts in your inbox, once you confirm your address from the email we send. No spam; unsubscribe at any time.</p>
      <form method="post" action={`${home}/subscribe`}>
        <label htmlFor="subscribe-email">Email address</label>
        <div className="subscribe-row">
          <input id="subscribe-email" type="email" name="email" required autoComplete="email" maxLength={254} />
          <button type="submit">Subscribe</button>
        </div>
      </form>
    </section>
  );
}

/** Everything after a post's body, in reading order. */
export function PostEnd({ view }: { view: PostEndView }) {
  return (
    <div className="post-end">
      <AuthorBox {...view} />
      <PostNavigation {...view} />
      <RelatedPosts {...view} />
      <SubscribeForm home={view.site.home} publicationTitle={view.site.title} />
    </div>
  );
}
