import "server-only";
import type { Prisma } from "~/generated/prisma/client";
import { authorsColumn } from "./authors";
import { readBlogViews, type BlogView } from "./blog-view";
import { writeAs, type BlogWriter, type ChangeSource } from "./change-source";
import type { BlogScope } from "./blog-scope";
import { coverImageColumn } from "./cover-image";
import { slugConflict } from "./find-blog";
import { firstFreeSlug, slugify } from "./slug";

export interface NewBlog {
  title: string;
  blogSlug?: string;
  description?: string;
  content?: string;
  isPublic?: boolean;
  seoTitle?: string;
  seoDescription?: string;
  tags?: string[];
  /** A future moment (validated by the caller); null or absent: not scheduled. */
  publishAt?: Date | null;
  /** An image id, checked here to be one the caller may see (./cover-image.ts); null or absent: none. */
  coverImage?: string | null;
  /** Email the blog to the account's subscribers when it first becomes public (docs/newsletters.md). */
  emailSubscribers?: boolean;
  /** Member user ids, the primary first, checked here to be members (./authors.ts); null or absent: the default. */
  authors?: string[] | null;
}

/**
 * Attempts at a derived slug: each round of concurrent creates of one title lets at least one of
 * them through, so N simultaneous creates need at most N rounds.
 */
const DERIVED_SLUG_ATTEMPTS = 50;

/**
 * Creates a blog, reachable over the API unless the owner says otherwise. An explicit slug the
 * account already uses is a conflict; without one, the slug is derived from the title (`-2`,
 * `-3`, … when taken). The unique index on (account, slug) settles races: never two blogs with
 * one slug. A taken slug is skipped (INSERT … ON CONFLICT DO NOTHING), not raised as an error, so
 * `db` may be a transaction that must stay usable (an idempotent create; README, The API).
 */
export function createBlog(
  db: BlogWriter,
  scope: BlogScope,
  blog: NewBlog,
  {
    allowApiAccess = true,
    source,
    creator,
  }: {
    /** The dashboard lets the owner choose; blogs created over the API always have API access. */
    allowApiAccess?: boolean;
    /** Who creates it, for its first revision. */
    source: ChangeSource;
    /**
     * The member who creates it (the dashboard), its author when none are named; without one the
     * database names the publication's owner (blog_default_authors, the blog_owner_author migration; docs/authors.md, Authors).
     */
    creator?: string;
  },
): Promise<BlogView> {
  return writeAs(db, source, async (tx) => {
    const { coverImage, authors, ...fields } = blog;
    const { accountId } = scope;
    const cover = await coverImageColumn(tx, scope, coverImage);
    const named = await authorsColumn(tx, scope, authors);
    const byline = named.authors ? named : creator ? { authors: [creator] } : {};
    /** The new blog, or undefined when the slug is taken. */
    const insert = async (blogSlug: string) => {
      const [created] = await tx.blog.createManyAndReturn({
        data: [{ ...fields, ...cover, ...byline, blogSlug, userId: accountId, allowApiAccess }],
        skipDuplicates: true,
        select: { id: true },
      });
      return created && (await readBlogViews(tx, [created.id]))[0];
    };

    if (blog.blogSlug !== undefined) {
      const created = await insert(blog.blogSlug);
      if (!created) throw slugConflict(blog.blogSlug);
      return created;
    }
    const base = slugify(blog.title);
    for (let attempt = 1; ; attempt++) {
      const slug = await freeSlugFor(tx, accountId, base);
      const created = await insert(slug);
      if (created) return created;
      if (attempt === DERIVED_SLUG_ATTEMPTS) throw slugConflict(slug);
    }
  });
}

async function freeSlugFor(db: Prisma.TransactionClient, accountId: string, base: string): Promise<string> {
  const similar = await db.blog.findMany({
    where: { userId: accountId, blogSlug: { startsWith: base } },
    select: { blogSlug: true },
  });
  const taken = new Set(similar.map((b) => b.blogSlug));
  return firstFreeSlug(base, (slug) => taken.has(slug));
}
