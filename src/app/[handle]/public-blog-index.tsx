import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Brand } from "~/components/brand";
import { formatDate } from "~/lib/format";
import { parsePublicPage } from "~/server/blogs/public-blogs";
import { feedAlternates } from "~/server/feeds";
import { pageOrigin } from "~/server/page-origin";
import { publicBlogIndex } from "~/server/public-pages";
import { tagPagePath } from "~/shared/tags";

/**
 * An owner's public blogs, newest first, 20 a page (`?page=N`): their index `/{handle}`, or with a
 * tag's slug the tag's page `/{handle}/tags/{tagSlug}` (docs/public-blog.md).
 */
export interface PublicIndexRequest {
  handle: string;
  /** The `page` search parameter as given. */
  page: string | string[] | undefined;
  tagSlug?: string;
}

/**
 * The page asked for and its blogs; null for an unknown handle or tag, an account with no public
 * blog (whose existence is nobody's business), a `page` that is no page number, or a page past the last.
 */
async function requestedPage(request: PublicIndexRequest) {
  const page = parsePublicPage(request.page);
  const index = page === null ? null : await publicBlogIndex(request.handle, page, request.tagSlug);
  if (!index || page === null || index.blogs.length === 0) return null;
  return { page, ...index };
}

/** The page's address: `/{handle}` (or the tag's) for page 1, with `?page=N` for the others. */
function pageHref(handle: string, page: number, tag: { slug: string } | null): string {
  const base = tag ? tagPagePath(handle, tag.slug) : `/${handle}`;
  return page === 1 ? base : `${base}?page=${page}`;
}

export async function publicIndexMetadata(request: PublicIndexRequest): Promise<Metadata> {
  const requested = await requestedPage(request);
  if (!requested) return { title: "Not found" };
  const { owner, page, tag } = requested;
  const name = tag ? `${tag.name}, by ${owner.name} (@${owner.handle})` : `${owner.name} (@${owner.handle})`;
  const title = page === 1 ? name : `${name}, page ${page}`;
  const description = tag ? `Public blogs of ${owner.name} tagged ${tag.name}` : `Public blogs of ${owner.name}`;
  const origin = await pageOrigin();
  const url = `${origin}${pageHref(owner.handle, page, tag)}`;
  return {
    title,
    description,
    alternates: { canonical: url, types: feedAlternates(origin, owner, tag ?? undefined) },
    openGraph: { type: "website", url, title, description, siteName: "Blog Manager" },
    twitter: { card: "summary", title, description },
  };
}

/** The page; 404 when there is none (requestedPage). */
export async function PublicBlogIndex(request: PublicIndexRequest) {
  const requested = await requestedPage(request);
  if (!requested) notFound();
  const { owner, blogs, hasOlder, page, tag } = requested;
  return (
    <div className="mx-auto max-w-3xl px-4 py-8">
      <Brand />
      <main className="mt-10">
        {tag ? (
          <>
            <h1 className="text-3xl font-bold tracking-tight wrap-anywhere text-slate-900">{tag.name}</h1>
            <p className="mt-1 text-slate-500">
              Tagged by{" "}
              <Link href={`/${owner.handle}`} className="font-medium text-indigo-700 hover:underline">
                {owner.name}
              </Link>
            </p>
          </>
        ) : (
          <>
            <h1 className="text-3xl font-bold tracking-tight wrap-anywhere text-slate-900">{owner.name}</h1>
            <p className="mt-1 text-slate-500">@{owner.handle}</p>
          </>
        )}
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
              <Link href={pageHref(owner.handle, page - 1, tag)} className="font-medium text-indigo-700 hover:underline">
                ← Newer
              </Link>
            ) : (
              <span />
            )}
            <span className="text-slate-500">Page {page}</span>
            {hasOlder ? (
              <Link href={pageHref(owner.handle, page + 1, tag)} className="font-medium text-indigo-700 hover:underline">
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
