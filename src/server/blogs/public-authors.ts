import "server-only";
import type { SqlPool } from "~/server/db";
import { pageOffset } from "~/server/common/pagination";
import { COVER_SELECT, FEED_SIZE, PENDING_VARIANTS_SELECT, PUBLIC_PAGE_SIZE, type CoverImage } from "./public-blogs";

/**
 * Authors on the public blog (docs/public-blog.md, Authors): the people a public blog names in
 * "authors" (user ids, the primary first), by their name, handle (their author page's slug),
 * picture and bio. Read at the publication's public content version, which a change to any of
 * those moves (the author_pages migration), so pages are never older than their authors.
 */

export interface PublicAuthor {
  id: string;
  name: string;
  /** Their author page's slug: /{publication}/authors/{handle}. */
  handle: string;
  /** better-auth's `image`, a URL, as stored (the page shows it only over https). */
  image: string | null;
  /** Plain text; "" for none. */
  bio: string;
}

const AUTHOR_COLUMNS = `u."id", u."name", u."handle", u."image", u."bio"`;

/** The blog's authors in its order, the primary first; a person since deleted is left out, and one named twice shown once. */
export async function listBlogAuthors(pool: SqlPool, blogId: string): Promise<PublicAuthor[]> {
  const { rows } = await pool.query<PublicAuthor>(
    `SELECT ${AUTHOR_COLUMNS} FROM "blog" AS b CROSS JOIN LATERAL unnest(b."authors") WITH ORDINALITY AS a("id", "n")
     JOIN "user" AS u ON u."id" = a."id" WHERE b."id" = $1 ORDER BY a."n"`,
    [blogId],
  );
  return rows.filter((row, index) => rows.findIndex((other) => other.id === row.id) === index);
}

/**
 * The person with handle `authorSlug` when they author a public blog of the publication; null
 * otherwise (their author page there is a 404). By the handle's unique index, then the GIN index
 * on "authors" ANDed with the publication's rows.
 */
export async function findPublicAuthor(pool: SqlPool, publicationId: string, authorSlug: string): Promise<PublicAuthor | null> {
  const { rows } = await pool.query<PublicAuthor>(
    `SELECT ${AUTHOR_COLUMNS} FROM "user" AS u
     WHERE u."handle" = $2 AND EXISTS (SELECT 1 FROM "blog" AS b WHERE b."userId" = $1 AND b."isPublic" AND b."authors" @> ARRAY[u."id"])`,
    [publicationId, authorSlug],
  );
  return rows[0] ?? null;
}

/** The blog's authors as a feed names them, in column "authors" (JSON: name and handle, the primary first). */
const FEED_AUTHORS_SELECT = `(SELECT COALESCE(json_agg(json_build_object('name', u."name", 'handle', u."handle") ORDER BY a."n"), '[]')
  FROM unnest(b."authors") WITH ORDINALITY AS a("id", "n") JOIN "user" AS u ON u."id" = a."id") AS "authors"`;

/** A page of the public blogs of the publication the person authors, latest published first (ties by id), as the index lists them. */
export async function listAuthorBlogs(pool: SqlPool, publicationId: string, authorId: string, page: number) {
  const { rows } = await pool.query<{ title: string; blogSlug: string; description: string; content: string; publishedAt: Date; cover: CoverImage | null }>(
    `SELECT b."title", b."blogSlug", b."description", b."content", b."publishedAt", ${COVER_SELECT} FROM "blog" AS b
     WHERE b."userId" = $1 AND b."isPublic" AND b."authors" @> ARRAY[$2]::text[]
     ORDER BY b."publishedAt" DESC, b."id" DESC LIMIT $3 OFFSET $4`,
    [publicationId, authorId, PUBLIC_PAGE_SIZE + 1, pageOffset(page, PUBLIC_PAGE_SIZE)],
  );
  return { blogs: rows.slice(0, PUBLIC_PAGE_SIZE), hasOlder: rows.length > PUBLIC_PAGE_SIZE };
}

/** The newest public blogs of the publication the person authors, for their feeds, each with its authors. */
export async function listAuthorFeedBlogs(pool: SqlPool, publicationId: string, authorId: string) {
  const { rows } = await pool.query<{
    title: string;
    blogSlug: string;
    description: string;
    content: string;
    tags: string[];
    publishedAt: Date;
    updatedAt: Date;
    cover: CoverImage | null;
    imagesWithPendingVariants: string[];
    authors: { name: string; handle: string }[];
  }>(
    `SELECT b."title", b."blogSlug", b."description", b."content", b."tags", b."publishedAt", b."updatedAt", ${COVER_SELECT}, ${PENDING_VARIANTS_SELECT},
       ${FEED_AUTHORS_SELECT}
     FROM "blog" AS b WHERE b."userId" = $1 AND b."isPublic" AND b."authors" @> ARRAY[$2]::text[]
     ORDER BY b."publishedAt" DESC, b."id" DESC LIMIT $3`,
    [publicationId, authorId, FEED_SIZE],
  );
  return rows;
}

/**
 * The authors of the publication's public blogs, by handle, with the last change of a blog of
 * theirs: their pages in its sitemap. None while one person wrote them all: their page would list
 * what the home does.
 */
export async function listSitemapAuthors(pool: SqlPool, publicationId: string, limit: number): Promise<{ handle: string; updatedAt: Date }[]> {
  const { rows } = await pool.query<{ handle: string; updatedAt: Date }>(
    `SELECT u."handle", max(b."updatedAt") AS "updatedAt"
     FROM "blog" AS b CROSS JOIN LATERAL unnest(b."authors") AS a("id") JOIN "user" AS u ON u."id" = a."id"
     WHERE b."userId" = $1 AND b."isPublic" GROUP BY u."handle" ORDER BY u."handle" LIMIT $2`,
    [publicationId, limit],
  );
  return rows.length > 1 ? rows : [];
}
