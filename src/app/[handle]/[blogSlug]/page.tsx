import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Brand } from "~/components/brand";
import { RenderedMarkdown } from "~/components/markdown";
import { formatDate } from "~/lib/format";
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
  const url = `${await pageOrigin()}/${author.handle}/${blogSlug}`;
  return {
    title: { absolute: title },
    description,
    alternates: { canonical: url },
    openGraph: { type: "article", url, title, description, siteName: "Blog Manager", publishedTime: blog.createdAt.toISOString(), authors: [author.name] },
    twitter: { card: "summary", title, description },
  };
}

/** A public blog, its Markdown rendered safely (and cached, see ~/server/public-pages); 404 when unknown or not public. */
export default async function PublicBlogPage({ params }: Params) {
  const { handle, blogSlug } = await params;
  const found = await publicBlog(handle, blogSlug);
  if (!found) notFound();
  const { blog, author } = found;
  return (
    <div className="mx-auto max-w-3xl px-4 py-8">
      <Brand />
      <main className="mt-10">
        <article>
          <header className="border-b border-slate-200 pb-6">
            <h1 className="text-3xl font-bold tracking-tight wrap-anywhere text-slate-900 sm:text-4xl">{blog.title}</h1>
            {blog.description && <p className="mt-3 text-lg wrap-anywhere text-slate-600">{blog.description}</p>}
            <p className="mt-4 text-sm text-slate-500">
              By{" "}
              <Link href={`/${author.handle}`} className="font-medium text-slate-700 hover:underline">
                {author.name}
              </Link>{" "}
              · {formatDate(blog.createdAt.toISOString())}
            </p>
          </header>
          <div className="mt-8">
            <RenderedMarkdown html={blog.html} />
          </div>
        </article>
      </main>
    </div>
  );
}
