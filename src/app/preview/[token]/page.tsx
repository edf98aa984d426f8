import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { BlogArticle } from "~/components/blog-article";
import { formatDateTime } from "~/lib/format";
import { markdownToHtml } from "~/lib/markdown";
import { findPreviewedBlog } from "~/server/blogs/preview-links";
import { getSqlPool } from "~/server/db";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ token: string }> };

const previewed = cache((token: string) => findPreviewedBlog(getSqlPool(), token));

/** Never indexed (also X-Robots-Tag, src/proxy.ts), never kept by a shared cache. */
export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const blog = await previewed((await params).token);
  return { title: blog ? `Preview: ${blog.title}` : "Not found", robots: { index: false, follow: false } };
}

/** A blog through its secret preview link, as its public page will look; 404 once expired or revoked. */
export default async function PreviewPage({ params }: Params) {
  const blog = await previewed((await params).token);
  if (!blog) notFound();
  const banner = (
    <p role="note" className="mb-6 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950">
      <strong>Preview.</strong> This is how the blog will look once published; only people with this link can see it. The link works
      until {formatDateTime(blog.expiresAt.toISOString())}.
    </p>
  );
  return (
    <BlogArticle
      title={blog.title}
      description={blog.description}
      html={markdownToHtml(blog.content)}
      author={{ name: blog.authorName, handle: blog.authorHandle }}
      publishedAt={blog.publishedAt}
      tags={blog.tags}
      banner={banner}
    />
  );
}
