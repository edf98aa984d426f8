import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { BlogArticle } from "~/components/blog-article";
import { feedAlternates } from "~/server/feeds";
import { pageOrigin } from "~/server/page-origin";
import { publicBlog } from "~/server/public-pages";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ handle: string; blogSlug: string }> };

/** seoTitle and seoDescription when set, else the title and the description. */
export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const { handle, blogSlug } = await params;
  const found = await publicBlog(handle, blogSlug);
  if (!found) return { title: "Not found" };
  const { blog, author } = found;
  const title = blog.seoTitle || blog.title;
  // Never the site's generic description: a blog without one is described by its title.
  const description = blog.seoDescription || blog.description || `${blog.title}, by ${author.name}`;
  const origin = await pageOrigin();
  const url = `${origin}/${author.handle}/${blogSlug}`;
  return {
    title: { absolute: title },
    description,
    alternates: { canonical: url, types: feedAlternates(origin, author) },
    openGraph: { type: "article", url, title, description, siteName: "Blog Manager", publishedTime: blog.publishedAt.toISOString(), authors: [author.name] },
    twitter: { card: "summary", title, description },
  };
}

/** A public blog, its Markdown rendered safely (and cached, see ~/server/public-pages); 404 when unknown or not public. */
export default async function PublicBlogPage({ params }: Params) {
  const { handle, blogSlug } = await params;
  const found = await publicBlog(handle, blogSlug);
  if (!found) notFound();
  const { blog, author } = found;
  return <BlogArticle title={blog.title} description={blog.description} html={blog.html} author={author} publishedAt={blog.publishedAt} tags={blog.tags} />;
}
