import "server-only";
import { formatDate } from "~/lib/format";
import type { LinkedBlog } from "../blogs/public-blogs";
import { dateStyle, type PublicationView } from "./publication-view";

/**
 * What ends a post's page, below its body (docs/public-blog.md, The end of a post): who wrote it,
 * the posts before and after it, related posts and the subscribe form. Plain markup, no script;
 * their styles are in ./reader-style.ts. Links are under the publication's home (`site.home`).
 */

export interface PostEndView {
  site: PublicationView;
  author: { name: string; image: string | null };
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

export function AuthorBox({ site, author }: Pick<PostEndView, "site" | "author">) {
  const { home } = site;
  // The publication's title is the owner's name until they give it another (docs/publication.md): said once.
  const about = [site.title === author.name ? "" : site.title, site.description].filter(Boolean).join(" — ");
  return (
    <section aria-label="Author" className="author-box">
      {author.image && isHttpsUrl(author.image) ? (
        // eslint-disable-next-line @next/next/no-img-element -- static markup rendered on the server: next/image has no place here
        <img className="avatar" src={author.image} alt="" width={56} height={56} loading="lazy" decoding="async" />
      ) : (
        <span aria-hidden="true" className="avatar">
          {initials(author.name)}
        </span>
      )}
      <div>
        <p className="author-name">
          Written by <a href={home}>{author.name}</a>
        </p>
        {about && <p className="meta">{about}</p>}
      </div>
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
