import "server-only";
import type { Db } from "~/server/db";
import { blogScopeWhere, type BlogScope } from "~/server/blogs/blog-scope";
import { blogNotFound } from "~/server/blogs/find-blog";
import { NO_NEWSLETTER, type NewsletterProgress } from "~/shared/newsletter";

/**
 * A blog's newsletter as far as it has gone (docs/newsletters.md, Emailing a post): NO_NEWSLETTER
 * until it starts sending. The blog must be one the scope sees, like every other blog read
 * (RESOURCE_NOT_FOUND otherwise); the counters are the sending job's.
 */
export async function readNewsletterProgress(db: Db, scope: BlogScope, blogId: string): Promise<NewsletterProgress> {
  const blog = await db.blog.findFirst({
    where: { id: blogId, ...blogScopeWhere(scope) },
    select: { newsletter: { select: { status: true, total: true, sent: true, failed: true, startedAt: true, finishedAt: true } } },
  });
  if (!blog) throw blogNotFound({ id: blogId }, scope);
  const { newsletter } = blog;
  if (!newsletter) return NO_NEWSLETTER;
  return {
    ...newsletter,
    startedAt: newsletter.startedAt.toISOString(),
    finishedAt: newsletter.finishedAt?.toISOString() ?? null,
  };
}
