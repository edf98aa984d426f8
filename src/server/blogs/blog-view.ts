import "server-only";
import type { Prisma } from "~/generated/prisma/client";
import type { BlogStatus } from "~/shared/blog-status";
import type { Db } from "~/server/db";

/**
 * A blog as the API shows it (docs/api.md, the blog object), timestamps as ISO 8601. Its one
 * definition is the database function blog_api_view (the publishing migration, its cover since
 * the blog_cover_image one, its email since the blog_api_view_newsletter one): the list, the single reads, the writes' answers and the webhook
 * payloads all select it.
 */
export interface BlogView {
  id: string;
  title: string;
  blogSlug: string;
  description: string;
  content: string;
  isPublic: boolean;
  allowApiAccess: boolean;
  seoTitle: string;
  seoDescription: string;
  tags: string[];
  /** The members who wrote it (user ids), the primary first (docs/authors.md); since the blog_authors migration. */
  authors: string[];
  /** The id of the account's image shown with the blog, or null. */
  coverImage: string | null;
  /** Whether the blog is to be emailed to the account's subscribers when it first becomes public (docs/newsletters.md). */
  emailSubscribers: boolean;
  /** When its email started, or null: set once, by the database, in the write that first makes it public. */
  emailedAt: string | null;
  status: BlogStatus;
  publishAt: string | null;
  publishedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** The select-list item that gives the blog row aliased `b` as a BlogView, in column "blog". */
export const BLOG_VIEW_SELECT = `blog_api_view(b) AS "blog"`;

/** The blogs with the given ids as BlogViews, in no particular order. */
export async function readBlogViews(db: Db | Prisma.TransactionClient, ids: string[]): Promise<BlogView[]> {
  const rows = await db.$queryRawUnsafe<{ blog: BlogView }[]>(`SELECT ${BLOG_VIEW_SELECT} FROM "blog" AS b WHERE b."id" = ANY ($1::text[])`, ids);
  return rows.map((row) => row.blog);
}
