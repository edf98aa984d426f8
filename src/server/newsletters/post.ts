import "server-only";
import { COVER_SELECT, PENDING_VARIANTS_SELECT, type CoverImage } from "~/server/blogs/public-blogs";
import { ownerColumn } from "~/server/accounts/account-sql";
import type { SqlPool } from "~/server/db";
import { configuredOrigin } from "~/server/http/public-origin";
import { readPublication } from "~/server/publication/publication";
import { accentColors } from "~/server/public-site/accent";
import { publicationHome } from "~/server/public-site/home";
import { publicationView } from "~/server/public-site/publication-view";
import { log } from "~/server/runtime/log";
import { DEFAULT_LINK_COLOR } from "./article-email";
import type { NewsletterPost, NewsletterSite } from "./email";

/**
 * The origin of a publication's emailed links (docs/newsletters.md, Sending): the app's configured
 * one (BETTER_AUTH_URL, or Vercel's production domain). A single machine run without it (a
 * developer's) has no public address: its links name the server on this machine,
 * http://localhost:{PORT}, which only its own user can follow, and the log says so.
 */
let warned = false;
function appOrigin(): string {
  if (configuredOrigin) return configuredOrigin;
  if (!warned) {
    warned = true;
    log.warn("newsletter links name http://localhost: set BETTER_AUTH_URL, the app's public origin, for links subscribers can follow");
  }
  return `http://localhost:${process.env.PORT ?? "3000"}`;
}

export interface NewsletterSource {
  blogId: string;
  userId: string;
  post: NewsletterPost;
  site: NewsletterSite;
}

/** What a post's email is made of: the post, its publication and where its links lead; null once the blog is gone. */
export async function readNewsletterSource(pool: SqlPool, blogId: string): Promise<NewsletterSource | null> {
  const { rows } = await pool.query<{
    userId: string;
    title: string;
    description: string;
    content: string;
    blogSlug: string;
    cover: CoverImage | null;
    imagesWithPendingVariants: string[];
    ownerName: string;
    handle: string;
  }>(
    `SELECT b."userId", b."title", b."description", b."content", b."blogSlug", ${COVER_SELECT}, ${PENDING_VARIANTS_SELECT}, ${ownerColumn("a", "name")} AS "ownerName", a."handle"
     FROM "blog" AS b JOIN "organization" AS a ON a."id" = b."userId" WHERE b."id" = $1`,
    [blogId],
  );
  const row = rows[0];
  if (!row) return null;
  const publication = await readPublication(pool, { id: row.userId, name: row.ownerName });
  // Its verified custom domain when it has one, as its pages' own links (docs/public-blog.md, Custom domains).
  const onDomain = publication.domain !== null && publication.domainVerified;
  const origin = onDomain ? `https://${publication.domain}` : appOrigin();
  const home = publicationHome(origin, row.handle, onDomain);
  const view = await publicationView(pool, publication, origin, home);
  return {
    blogId,
    userId: row.userId,
    post: {
      title: row.title,
      description: row.description,
      content: row.content,
      cover: row.cover,
      imagesWithPendingVariants: row.imagesWithPendingVariants,
      url: `${home}/${row.blogSlug}`,
    },
    site: {
      title: publication.title,
      origin,
      home,
      linkColor: publication.accentColor ? accentColors(publication.accentColor).light : DEFAULT_LINK_COLOR,
      logo: view.logo,
    },
  };
}
