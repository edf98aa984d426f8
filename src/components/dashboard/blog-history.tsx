"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { diffLines, diffWordsWithSpace, type Change } from "diff";
import { useState } from "react";
import { Button } from "~/components/ui/button";
import { Card, CardTitle } from "~/components/ui/card";
import { ConfirmDialog } from "~/components/ui/dialog";
import { LocalTime } from "~/components/ui/local-time";
import type { BlogView } from "~/server/blogs/blog-view";
import { api, errorMessage, isPreconditionFailed } from "~/trpc/react";
import { trpc } from "~/trpc/query-keys";

const PAGE = 10;

/** The revisions' text fields, as the history compares them, in the form's words. */
const COMPARED = [
  ["title", "Title"],
  ["description", "Description"],
  ["tags", "Tags"],
  ["content", "Content"],
  ["seoTitle", "SEO title"],
  ["seoDescription", "SEO description"],
] as const;

const SOURCE_LABELS = { owner: "You", cli: "CLI import", restore: "Restore", database: "Database" } as const;

function who(revision: { changedBy: string; apiKeyName: string | null }): string {
  return revision.changedBy === "api_key" ? `API key “${revision.apiKeyName}”` : SOURCE_LABELS[revision.changedBy as keyof typeof SOURCE_LABELS];
}

type Texts = Pick<BlogView, (typeof COMPARED)[number][0]>;
const asText = (texts: Texts, field: (typeof COMPARED)[number][0]) => (field === "tags" ? texts.tags.join(", ") : texts[field]);

/** One field's changes from the revision to the current text: removed parts struck through, added ones underlined. */
function FieldDiff({ label, changes }: { label: string; changes: Change[] }) {
  return (
    <div>
      <h4 className="text-sm font-medium text-slate-800">{label}</h4>
      <pre className="mt-1 max-h-80 overflow-auto rounded-md border border-slate-200 bg-slate-50 p-3 text-sm whitespace-pre-wrap wrap-anywhere">
        {changes.map((change, i) =>
          change.removed ? (
            <del key={i} className="bg-red-100 text-red-900" aria-label={`removed: ${change.value}`}>
              {change.value}
            </del>
          ) : change.added ? (
            <ins key={i} className="bg-emerald-100 text-emerald-900" aria-label={`added: ${change.value}`}>
              {change.value}
            </ins>
          ) : (
            <span key={i}>{change.value}</span>
          ),
        )}
      </pre>
    </div>
  );
}

/**
 * The edit page's History (docs/api.md, revisions): who changed what and when, newest first; a
 * revision's text against the current one as a diff; Restore writes it back after a confirmation,
 * under the page's If-Match, and `onRestored` hands the form the blog as restored.
 */
export function BlogHistory({
  blog,
  entityTag,
  onRestored,
  onConflict,
}: {
  blog: BlogView;
  entityTag: string | null;
  onRestored: (blog: BlogView, entityTag: string | null) => void;
  onConflict: () => void;
}) {
  const queryClient = useQueryClient();
  const [limit, setLimit] = useState(PAGE);
  const [selected, setSelected] = useState<string | null>(null);
  const [confirmOpen, setConfirmOpen] = useState(false);
  const [problem, setProblem] = useState("");
  const history = useQuery({
    queryKey: trpc.blogs.revisions.list.queryKey({ blogId: blog.id, limit }),
    queryFn: async () => (await api.blogs.revisions.list.query({ blogId: blog.id, limit })).data,
  });
  const revision = useQuery({
    queryKey: trpc.blogs.revisions.get.queryKey({ blogId: blog.id, revisionId: selected ?? undefined }),
    queryFn: async () => (await api.blogs.revisions.get.query({ blogId: blog.id, revisionId: selected! })).data.revision,
    enabled: selected !== null,
  });
  const restore = useMutation({
    mutationFn: async (revisionId: string) => {
      let answeredTag: string | null = null;
      const context = { ifMatch: entityTag ?? undefined, onEntityTag: (tag: string | null) => (answeredTag = tag) };
      const { data } = await api.blogs.revisions.restore.mutate({ blogId: blog.id, revisionId }, { context });
      return { blog: data.blog, entityTag: answeredTag };
    },
    onSuccess: (restored) => {
      setConfirmOpen(false);
      setSelected(null);
      setProblem("");
      void queryClient.invalidateQueries({ queryKey: trpc.blogs.revisions.list.queryKey({ blogId: blog.id }) });
      void queryClient.invalidateQueries({ queryKey: trpc.blogs.list.queryKey() });
      onRestored(restored.blog, restored.entityTag);
    },
    onError: (error) => {
      setConfirmOpen(false);
      if (isPreconditionFailed(error)) {
        setProblem("The blog changed since this page loaded it. It has been loaded again: check the changes and restore again.");
        onConflict();
      } else setProblem(errorMessage(error));
    },
  });

  const diffs = revision.data
    ? COMPARED.flatMap(([field, label]) => {
        const before = asText(revision.data, field);
        const now = asText(blog, field);
        if (before === now) return [];
        const changes = field === "content" ? diffLines(before, now) : diffWordsWithSpace(before, now);
        return [{ field, label, changes }];
      })
    : [];

  return (
    <Card className="space-y-4">
      <CardTitle>History</CardTitle>
      {history.error && <p className="text-sm text-red-600">{errorMessage(history.error)}</p>}
      {history.data && (
        <>
          <ol aria-label="Revisions, newest first" className="divide-y divide-slate-200 rounded-md border border-slate-200">
            {history.data.revisions.map((item, index) => (
              <li key={item.id}>
                <button
                  type="button"
                  aria-pressed={selected === item.id}
                  onClick={() => setSelected(selected === item.id ? null : item.id)}
                  className="flex w-full flex-wrap items-baseline gap-x-2 px-3 py-2 text-left text-sm hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-indigo-600 aria-pressed:bg-indigo-50"
                >
                  <span className="font-medium text-slate-900">
                    <LocalTime iso={item.createdAt} seconds />
                  </span>
                  <span className="text-slate-700">{who(item)}</span>
                  <span className="text-xs text-slate-600">
                    {index === 0 && history.data.pagination.page === 1 ? "current · " : ""}
                    {item.changedFields.length === COMPARED.length ? "all fields" : item.changedFields.join(", ")}
                  </span>
                </button>
              </li>
            ))}
          </ol>
          {history.data.pagination.total > limit && (
            <Button variant="secondary" size="sm" onClick={() => setLimit((n) => Math.min(n + PAGE, 50))} disabled={limit >= 50}>
              Show older revisions
            </Button>
          )}
        </>
      )}

      {selected && revision.data && (
        <section aria-label="Changes since this revision" className="space-y-3">
          <h3 className="text-sm font-semibold text-slate-900">
            From this revision (<LocalTime iso={revision.data.createdAt} />) to the current text
          </h3>
          {diffs.length === 0 ? (
            <p className="text-sm text-slate-600">Same as the current text.</p>
          ) : (
            diffs.map((d) => <FieldDiff key={d.field} label={d.label} changes={d.changes} />)
          )}
          {diffs.length > 0 && (
            <ConfirmDialog
              open={confirmOpen}
              onOpenChange={setConfirmOpen}
              trigger={<Button variant="secondary">Restore this version</Button>}
              title="Restore this version?"
              description={
                <p>
                  The title, description, content, SEO fields and tags become those of <LocalTime iso={revision.data.createdAt} />. The
                  current text stays in the history, so this can be undone.
                </p>
              }
              confirmLabel="Restore"
              confirmVariant="primary"
              busy={restore.isPending}
              onConfirm={() => restore.mutate(selected)}
            />
          )}
        </section>
      )}
      <p role="alert" className="min-h-5 text-sm text-red-600">
        {problem}
      </p>
    </Card>
  );
}
