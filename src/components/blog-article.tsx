import Link from "next/link";
import type { ReactNode } from "react";
import { Brand } from "~/components/brand";
import { RenderedMarkdown } from "~/components/markdown";
import { formatDate } from "~/lib/format";
import { tagPagePath, tagSlug } from "~/shared/tags";

/**
 * A blog as readers see it: the public page, and its preview (/preview/{token}), which shows it
 * exactly so, below `banner`. `publishedAt` null: not published yet. Each tag links to its page.
 */
export function BlogArticle({
  title,
  description,
  html,
  author,
  publishedAt,
  tags,
  banner,
}: {
  title: string;
  description: string;
  html: string;
  author: { name: string; handle: string };
  publishedAt: Date | null;
  tags: string[];
  banner?: ReactNode;
}) {
  return (
    <div className="mx-auto max-w-3xl px-4 py-8">
      {banner}
      <Brand />
      <main className="mt-10">
        <article>
          <header className="border-b border-slate-200 pb-6">
            <h1 className="text-3xl font-bold tracking-tight wrap-anywhere text-slate-900 sm:text-4xl">{title}</h1>
            {description && <p className="mt-3 text-lg wrap-anywhere text-slate-600">{description}</p>}
            <p className="mt-4 text-sm text-slate-500">
              By{" "}
              <Link href={`/${author.handle}`} className="font-medium text-slate-700 hover:underline">
                {author.name}
              </Link>{" "}
              · {publishedAt ? formatDate(publishedAt.toISOString()) : "Not published yet"}
            </p>
            {tags.length > 0 && (
              <ul aria-label="Tags" className="mt-3 flex flex-wrap gap-2">
                {tags.map((tag) => (
                  <li key={tag}>
                    <Link
                      href={tagPagePath(author.handle, tagSlug(tag))}
                      className="inline-block rounded-full bg-slate-100 px-2.5 py-1 text-xs font-medium text-slate-700 hover:bg-slate-200"
                    >
                      {tag}
                    </Link>
                  </li>
                ))}
              </ul>
            )}
          </header>
          <div className="mt-8">
            <RenderedMarkdown html={html} />
          </div>
        </article>
      </main>
    </div>
  );
}
