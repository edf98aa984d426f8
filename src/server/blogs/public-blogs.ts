import "server-only";
import type { SqlPool } from "~/server/db";
import { ownerColumn } from "~/server/accounts/account-sql";
import { pageOffset } from "~/server/common/pagination";
import type { ImageReference } from "~/shared/images";

/** What anyone may read without signing in: public blogs, by their owner's handle. */

/** Blogs per page of /{handle}. */
export const PUBLIC_PAGE_SIZE = 20;

/** A blog's cover image (docs/public-blog.md) as its URLs name it, with its original's size in bytes (the feeds' enclosures). */
export interface CoverImage extends ImageReference {
  bytes: number;
}

/**
 * The cover of the blog row aliased `b`, in column "cover" (a CoverImage, or null): by its primary
 * key, and only an image of the blog's own account, whoever wrote the column.
 */
export const COVER_SELECT = `(SELECT json_build_object('id', i."id", 'width', i."width", 'height', i."height", 'format', i."format", 'bytes', i."bytes",
    'variantsPending', i."variantsPending")
  FROM "image" AS i WHERE i."id" = b."coverImageId" AND i."userId" = b."userId") AS "cover"`;

/**
 * The images the Markdown of the blog row aliased `b` names whose variants are still to be made,
 * in column "imagesWithPendingVariants" (ids): its page offers them without (docs/images.md, Serving).
 */
export const PENDING_VARIANTS_SELECT = `ARRAY(SELECT i."id" FROM "blog_image" AS bi JOIN "image" AS i ON i."id" = bi."imageId"
  WHERE bi."blogId" = b."id" AND i."variantsPending") AS "imagesWithPendingVariants"`;

export interface PublicOwner {
  id: string;
  name: string;
  handle: string;
  /**
   * Moves with every write to the account's public blogs or publication (see the
   * public_content_version migration); "0" before the first, when the account's only page is its
   * empty home (docs/publication.md).
   */
  contentVersion: string;
  /** When it last moved, in whole seconds (the public_cache migration); the account's creation before the first move. */
  changedAt: Date;
  /** The publication's custom domain once verified (docs/public-blog.md, Custom domains), else null. */
  verifiedDomain: string | null;
}

/** The account with `handle`, its public content version and verified domain: one statement, three index lookups. */
export async function findPublicOwner(pool: SqlPool, handle: string): Promise<PublicOwner | null> {
  const { rows } = await pool.query<PublicOwner>(
    `SELECT a."id", ${ownerColumn("a", "name")} AS "name", a."handle", COALESCE(v."version"::text, '0') AS "contentVersion",
       COALESCE(v."changedAt", date_trunc('second', a."createdAt")) AS "changedAt",
       CASE WHEN p."domainVerifiedAt" IS NOT NULL THEN p."domain" END AS "verifiedDomain"
     FROM "organization" AS a LEFT JOIN "public_content_version" AS v ON v."userId" = a."id" LEFT JOIN "publication" AS p ON p."userId" = a."id"
     WHERE a."handle" = $1`,
    [handle],
  );
  return rows[0] ?? null;
}

/**
 * One page of the account's public blogs, latest published first (ties by id); `hasOlder` says
 * whether another page follows. The page's ids come from an index-only scan of ("userId",
 * "isPublic", "publishedAt" DESC, "id" DESC), so deep pages skip index entries only, then their
 * rows by key. A public blog always has its publishedAt (the publishing migration's trigger).
 */
export async function listPublicBlogs(pool: SqlPool, ownerId: string, page: number, tagSlug?: string) {
  const { rows } = await pool.query<{ title: string; blogSlug: string; description: string; content: string; publishedAt: Date; cover: CoverImage | null }>(
    `SELECT b."title", b."blogSlug", b."description", b."content", b."publishedAt", ${COVER_SELECT} FROM "blog" AS b
     WHERE b."id" IN (SELECT "id" FROM "blog" WHERE "userId" = $1 AND "isPublic" ${tagSlug ? `AND "tagSlugs" @> ARRAY[$4]::text[]` : ""}
                      ORDER BY "publishedAt" DESC, "id" DESC LIMIT $2 OFFSET $3)
     ORDER BY b."publishedAt" DESC, b."id" DESC`,
    [ownerId, PUBLIC_PAGE_SIZE + 1, pageOffset(page, PUBLIC_PAGE_SIZE), ...(tagSlug ? [tagSlug] : [])],
  );
  return { blogs: rows.slice(0, PUBLIC_PAGE_SIZE), hasOlder: rows.length > PUBLIC_PAGE_SIZE };
}

/** One public blog of the account by its slug (the unique key ("userId", "blogSlug")); null when unknown or not public. */
export async function findPublicBlog(pool: SqlPool, ownerId: string, blogSlug: string) {
  const { rows } = await pool.query<{
    id: string;
    title: string;
    description: string;
    content: string;
    seoTitle: string;
    seoDescription: string;
    tags: string[];
    publishedAt: Date;
    updatedAt: Date;
    cover: CoverImage | null;
    imagesWithPendingVariants: string[];
  }>(
    `SELECT b."id", b."title", b."description", b."content", b."seoTitle", b."seoDescription", b."tags", b."publishedAt", b."updatedAt", ${COVER_SELECT},
       ${PENDING_VARIANTS_SELECT}
     FROM "blog" AS b WHERE b."userId" = $1 AND b."blogSlug" = $2 AND b."isPublic"`,
    [ownerId, blogSlug],
  );
  return rows[0] ?? null;
}

/**
 * The slug now of the account's blog that left `oldSlug` (docs/public-blog.md, Moved blogs), when
 * that blog is public; null otherwise. By the redirect's primary key, then the blog's.
 */
export async function findMovedPublicBlog(pool: SqlPool, ownerId: string, oldSlug: string): Promise<string | null> {
  const { rows } = await pool.query<{ blogSlug: string }>(
    `SELECT b."blogSlug" FROM "blog_slug_redirect" AS r JOIN "blog" AS b ON b."id" = r."blogId"
     WHERE r."userId" = $1 AND r."slug" = $2 AND b."isPublic"`,
    [ownerId, oldSlug],
  );
  return rows[0]?.blogSlug ?? null;
}

/** Blogs in a feed (docs/public-blog.md): the newest. */
export const FEED_SIZE = 20;

/** The account's newest public blogs (with a tag: carrying it) for its feeds, latest published first, from the same index as the index pages. */
export async function listFeedBlogs(pool: SqlPool, ownerId: string, tagSlug?: string) {
  const { rows } = await pool.query<{ title: string; blogSlug: string; description: string; content: string; tags: string[]; publishedAt: Date; updatedAt: Date; cover: CoverImage | null; imagesWithPendingVariants: string[] }>(
    `SELECT b."title", b."blogSlug", b."description", b."content", b."tags", b."publishedAt", b."updatedAt", ${COVER_SELECT}, ${PENDING_VARIANTS_SELECT} FROM "blog" AS b
     WHERE b."userId" = $1 AND b."isPublic" ${tagSlug ? `AND b."tagSlugs" @> ARRAY[$3]::text[]` : ""} ORDER BY b."publishedAt" DESC, b."id" DESC LIMIT $2`,
    [ownerId, FEED_SIZE, ...(tagSlug ? [tagSlug] : [])],
  );
  return rows;
}

/** A tag of the account's public blogs as its newest public blog writes it; null when no public blog carries it. */
export async function findPublicTag(pool: SqlPool, ownerId: string, tagSlug: string): Promise<{ name: string; slug: string } | null> {
  const { rows } = await pool.query<{ name: string }>(
    `SELECT t."name" FROM "blog" AS b CROSS JOIN LATERAL unnest(b."tags") AS t("name")
     WHERE b."userId" = $1 AND b."isPublic" AND b."tagSlugs" @> ARRAY[$2]::text[] AND "blog_tag_slug"(t."name") = $2
     ORDER BY b."publishedAt" DESC, b."id" DESC LIMIT 1`,
    [ownerId, tagSlug],
  );
  return rows[0] ? { name: rows[0].name, slug: tagSlug } : null;
}

/**
 * The owners with a public blog, by handle, with their public blogs' last change: the sitemap
 * index's entries. Not those served at a verified domain: their sitemap is that domain's.
 */
export async function listSitemapOwners(pool: SqlPool, limit: number) {
  const { rows } = await pool.query<{ handle: string; lastmod: Date }>(
    `SELECT a."handle", max(b."updatedAt") AS "lastmod" FROM "blog" AS b JOIN "organization" AS a ON a."id" = b."userId"
     WHERE b."isPublic" AND NOT EXISTS (SELECT 1 FROM "publication" AS p WHERE p."userId" = a."id" AND p."domainVerifiedAt" IS NOT NULL)
     GROUP BY a."handle" ORDER BY a."handle" LIMIT $1`,
    [limit],
  );
  return rows;
}

/** The tags of the account's public blogs, by slug, as the newest blog carrying each writes it, with that blog's last change: their pages in the sitemap. */
export async function listSitemapTags(pool: SqlPool, ownerId: string, limit: number) {
  const { rows } = await pool.query<{ slug: string; updatedAt: Date }>(
    `SELECT "blog_tag_slug"(t."name") AS "slug", max(b."updatedAt") AS "updatedAt"
     FROM "blog" AS b CROSS JOIN LATERAL unnest(b."tags") AS t("name")
     WHERE b."userId" = $1 AND b."isPublic" GROUP BY 1 ORDER BY 1 LIMIT $2`,
    [ownerId, limit],
  );
  return rows;
}

/** The account's public blogs for its sitemap, latest published first, at most `limit`. */
export async function listSitemapBlogs(pool: SqlPool, ownerId: string, limit: number) {
  const { rows } = await pool.query<{ blogSlug: string; updatedAt: Date }>(
    `SELECT "blogSlug", "updatedAt" FROM "blog" WHERE "userId" = $1 AND "isPublic" ORDER BY "publishedAt" DESC, "id" DESC LIMIT $2`,
    [ownerId, limit],
  );
  return rows;
}

/** A public blog another one's page links to (docs/public-blog.md, The end of a post). */
export interface LinkedBlog {
  title: string;
  blogSlug: string;
  publishedAt: Date;
}

/**
 * The account's public blogs published just before and just after its public blog `blogSlug`
 * (by publishedAt, ties by id): each one step along ("userId", "isPublic", "publishedAt" DESC,
 * "id" DESC) from the blog's own entry; null at either end.
 */
export async function findAdjacentPublicBlogs(pool: SqlPool, ownerId: string, blogSlug: string): Promise<{ previous: LinkedBlog | null; next: LinkedBlog | null }> {
  const { rows } = await pool.query<LinkedBlog & { direction: "previous" | "next" }>(
    `WITH c AS (SELECT "id", "publishedAt" FROM "blog" WHERE "userId" = $1 AND "blogSlug" = $2 AND "isPublic")
     SELECT 'previous' AS "direction", p.* FROM c CROSS JOIN LATERAL (
       SELECT b."title", b."blogSlug", b."publishedAt" FROM "blog" AS b
       WHERE b."userId" = $1 AND b."isPublic" AND (b."publishedAt", b."id") < (c."publishedAt", c."id")
       ORDER BY b."publishedAt" DESC, b."id" DESC LIMIT 1) AS p
     UNION ALL
     SELECT 'next', n.* FROM c CROSS JOIN LATERAL (
       SELECT b."title", b."blogSlug", b."publishedAt" FROM "blog" AS b
       WHERE b."userId" = $1 AND b."isPublic" AND (b."publishedAt", b."id") > (c."publishedAt", c."id")
       ORDER BY b."publishedAt", b."id" LIMIT 1) AS n`,
    [ownerId, blogSlug],
  );
  const find = (direction: "previous" | "next") => {
    const row = rows.find((candidate) => candidate.direction === direction);
    return row ? { title: row.title, blogSlug: row.blogSlug, publishedAt: row.publishedAt } : null;
  };
  return { previous: find("previous"), next: find("next") };
}

/** Related blogs a post's page shows, at most. */
export const RELATED_BLOGS = 3;

/**
 * Up to RELATED_BLOGS of the account's other public blogs sharing a tag with its public blog
 * `blogSlug`: most shared tags first, then newest. Candidates are the GIN index's on "tagSlugs"
 * (the publishing migration) ANDed with the account's entries, then ranked by a sort that keeps
 * three; at 50,000 posts an account's common tag costs about 1,500 pages read (docs/public-blog.md).
 */
export async function listRelatedPublicBlogs(pool: SqlPool, ownerId: string, blogSlug: string): Promise<LinkedBlog[]> {
  const { rows } = await pool.query<LinkedBlog>(
    `WITH c AS (SELECT "id", "tagSlugs" FROM "blog" WHERE "userId" = $1 AND "blogSlug" = $2 AND "isPublic")
     SELECT b."title", b."blogSlug", b."publishedAt" FROM "blog" AS b, c
     WHERE b."userId" = $1 AND b."isPublic" AND b."tagSlugs" && c."tagSlugs" AND b."id" <> c."id"
     ORDER BY (SELECT count(*) FROM unnest(b."tagSlugs") AS t(s) WHERE t.s = ANY (c."tagSlugs")) DESC, b."publishedAt" DESC, b."id" DESC
     LIMIT $3`,
    [ownerId, blogSlug, RELATED_BLOGS],
  );
  return rows;
}
