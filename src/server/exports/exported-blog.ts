import "server-only";
import type { Db } from "~/server/db";

/** A blog's columns the export writes. */
export const EXPORTED_BLOG_COLUMNS = {
  id: true,
  title: true,
  blogSlug: true,
  description: true,
  content: true,
  status: true,
  publishAt: true,
  publishedAt: true,
  createdAt: true,
  updatedAt: true,
  tags: true,
  seoTitle: true,
  seoDescription: true,
  coverImageId: true,
} as const;

export interface ExportedBlog {
  id: string;
  title: string;
  blogSlug: string;
  description: string;
  content: string;
  status: "draft" | "scheduled" | "published";
  publishAt: Date | null;
  publishedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  tags: string[];
  seoTitle: string;
  seoDescription: string;
  coverImageId: string | null;
}

/** When the blog was or is to be published: its first publication, or its scheduled time; none for a draft. */
export const publicationDate = (blog: Pick<ExportedBlog, "status" | "publishAt" | "publishedAt">): Date | null =>
  blog.status === "scheduled" ? blog.publishAt : blog.status === "published" ? blog.publishedAt : null;

/** The account's blogs, oldest first, a batch at a time: a large account is never held whole. */
export async function* exportedBlogs(db: Db, accountId: string, batch = 100): AsyncGenerator<ExportedBlog[]> {
  let after: string | undefined;
  for (;;) {
    const rows = await db.blog.findMany({
      where: { userId: accountId, ...(after && { id: { gt: after } }) },
      orderBy: { id: "asc" },
      take: batch,
      select: EXPORTED_BLOG_COLUMNS,
    });
    if (rows.length > 0) yield rows;
    const last = rows.at(-1);
    if (!last || rows.length < batch) return;
    after = last.id;
  }
}
