import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Brand } from "~/components/brand";
import { formatDate } from "~/lib/format";
import { publicBlogIndex } from "~/server/public-pages";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ handle: string }> };

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const index = await publicBlogIndex((await params).handle);
  if (!index) return { title: "Not found" };
  return { title: `${index.owner.name} (@${index.owner.handle})`, description: `Public blogs of ${index.owner.name}` };
}

/** An account's public blogs, newest first; 404 for an unknown handle. */
export default async function PublicIndexPage({ params }: Params) {
  const index = await publicBlogIndex((await params).handle);
  if (!index) notFound();
  return (
    <div className="mx-auto max-w-3xl px-4 py-8">
      <Brand />
      <main className="mt-10">
        <h1 className="text-3xl font-bold tracking-tight text-slate-900">{index.owner.name}</h1>
        <p className="mt-1 text-slate-500">@{index.owner.handle}</p>
        {index.blogs.length === 0 ? (
          <p className="mt-10 rounded-lg border border-dashed border-slate-300 bg-white p-8 text-center text-slate-600">
            No public blogs yet.
          </p>
        ) : (
          <ul className="mt-8 divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
            {index.blogs.map((blog) => (
              <li key={blog.blogSlug} className="p-5">
                <h2 className="text-lg font-semibold">
                  <Link href={`/${index.owner.handle}/${blog.blogSlug}`} className="text-slate-900 hover:text-indigo-700 hover:underline">
                    {blog.title}
                  </Link>
                </h2>
                {blog.description && <p className="mt-1 text-sm text-slate-600">{blog.description}</p>}
                <p className="mt-2 text-xs text-slate-500">{formatDate(blog.createdAt.toISOString())}</p>
              </li>
            ))}
          </ul>
        )}
      </main>
    </div>
  );
}
