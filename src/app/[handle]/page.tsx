import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Brand } from "~/components/brand";
import { formatDate } from "~/lib/format";
import { parsePublicPage } from "~/server/blogs/public-blogs";
import { feedAlternates } from "~/server/feeds";
import { pageOrigin } from "~/server/page-origin";
import { publicBlogIndex } from "~/server/public-pages";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ handle: string }>; searchParams: Promise<{ page?: string | string[] }> };

/**
 * The page asked for and its blogs; null for an unknown handle, an account with no public blog
 * (whose existence is nobody's business), a `page` that is no page number, or a page past the last.
 */
async function requestedPage({ params, searchParams }: Params) {
  const page = parsePublicPage((await searchParams).page);
  const index = page === null ? null : await publicBlogIndex((await params).handle, page);
  if (!index || page === null || index.blogs.length === 0) return null;
  return { page, ...index };
}

/** `/{handle}` for page 1, `/{handle}?page=N` for the others. */
function pageHref(handle: string, page: number): string {
  return page === 1 ? `/${handle}` : `/${handle}?page=${page}`;
}

export async function generateMetadata(props: Params): Promise<Metadata> {
  const requested = await requestedPage(props);
  if (!requested) return { title: "Not found" };
  const { owner, page } = requested;
  const name = `${owner.name} (@${owner.handle})`;
  const title = page === 1 ? name : `${name}, page ${page}`;
  const description = `Public blogs of ${owner.name}`;
  const origin = await pageOrigin();
  const url = `${origin}${pageHref(owner.handle, page)}`;
  return {
    title,
    description,
    alternates: { canonical: url, types: feedAlternates(origin, owner) },
    openGraph: { type: "website", url, title, description, siteName: "Blog Manager" },
    twitter: { card: "summary", title, description },
  };
}

/**
 * An account's public blogs, newest first, 20 a page (`?page=N`); 404 for an unknown handle, an
 * account with no public blog, a page past the last, or a `page` that is not a whole number from 1.
 */
export default async function PublicIndexPage(props: Params) {
  const requested = await requestedPage(props);
  if (!requested) notFound();
  const { owner, blogs, hasOlder, page } = requested;
  return (
    <div className="mx-auto max-w-3xl px-4 py-8">
      <Brand />
      <main className="mt-10">
        <h1 className="text-3xl font-bold tracking-tight wrap-anywhere text-slate-900">{owner.name}</h1>
        <p className="mt-1 text-slate-500">@{owner.handle}</p>
        <ul className="mt-8 divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
          {blogs.map((blog) => (
            <li key={blog.blogSlug} className="p-5">
              <h2 className="text-lg font-semibold wrap-anywhere">
                <Link href={`/${owner.handle}/${blog.blogSlug}`} className="text-slate-900 hover:text-indigo-700 hover:underline">
                  {blog.title}
                </Link>
              </h2>
              {blog.description && <p className="mt-1 text-sm wrap-anywhere text-slate-600">{blog.description}</p>}
              <p className="mt-2 text-xs text-slate-500">{formatDate(blog.publishedAt.toISOString())}</p>
            </li>
          ))}
        </ul>
        {(page > 1 || hasOlder) && (
          <nav aria-label="Pages" className="mt-6 flex items-center justify-between text-sm">
            {page > 1 ? (
              <Link href={pageHref(owner.handle, page - 1)} className="font-medium text-indigo-700 hover:underline">
                ← Newer
              </Link>
            ) : (
              <span />
            )}
            <span className="text-slate-500">Page {page}</span>
            {hasOlder ? (
              <Link href={pageHref(owner.handle, page + 1)} className="font-medium text-indigo-700 hover:underline">
                Older →
              </Link>
            ) : (
              <span />
            )}
          </nav>
        )}
      </main>
    </div>
  );
}
