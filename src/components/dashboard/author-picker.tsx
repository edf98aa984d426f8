"use client";

import { useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { Button } from "~/components/ui/button";
import { api } from "~/trpc/react";
import { trpc } from "~/trpc/query-keys";
import { MAX_AUTHORS } from "~/shared/blog-fields";

const SELECT = "h-10 min-w-0 flex-1 rounded-md border border-slate-300 bg-white px-2 text-sm text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600";

/** The publication's members and the signed-in one, as blogs.authorChoices gives them. */
export function useAuthorChoices() {
  return useQuery({ queryKey: trpc.blogs.authorChoices.queryKey(), queryFn: () => api.blogs.authorChoices.query(), staleTime: 60_000 });
}

/**
 * The blog's authors in the editor's settings (docs/dashboard.md, The editor; docs/teams.md,
 * Authors): the publication's members, the primary first. A member is added from a list, made
 * primary or removed; the last one stays. A new blog with none chosen is the signed-in member's.
 */
export function AuthorPicker({ authors, onChange, error }: { authors: string[]; onChange: (authors: string[]) => void; error?: string }) {
  const headingId = useId();
  const selectId = useId();
  const choices = useAuthorChoices();
  const [adding, setAdding] = useState("");
  const members = choices.data?.members ?? [];
  const nameOf = (userId: string) => members.find((m) => m.userId === userId)?.name || "A former member";
  // None chosen yet (a new blog): the member writing it, as the server defaults it.
  const shown = authors.length > 0 ? authors : choices.data ? [choices.data.you] : [];
  const addable = members.filter((m) => !shown.includes(m.userId));
  const move = (userId: string) => onChange([userId, ...shown.filter((id) => id !== userId)]);
  const remove = (userId: string) => onChange(shown.filter((id) => id !== userId));
  const add = () => {
    if (!adding) return;
    onChange([...shown, adding]);
    setAdding("");
  };

  return (
    <section aria-labelledby={headingId} className="space-y-2" data-testid="author-picker">
      <h2 id={headingId} className="text-sm font-medium text-slate-800">
        Authors
      </h2>
      {choices.isError && <p className="text-xs text-red-700">The members could not be loaded.</p>}
      <ol className="space-y-1">
        {shown.map((userId, index) => (
          <li key={userId} className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-slate-200 px-2 py-1 text-sm">
            <span className="min-w-0 break-words text-slate-900">
              {nameOf(userId)}
              {userId === choices.data?.you && <span className="text-slate-600"> (you)</span>}
              {index === 0 && <span className="ml-2 rounded-full bg-indigo-100 px-2 py-0.5 text-xs font-medium text-indigo-800">Primary</span>}
            </span>
            <span className="flex gap-1">
              {index > 0 && (
                <Button size="sm" variant="ghost" onClick={() => move(userId)} aria-label={`Make primary: ${nameOf(userId)}`}>
                  Make primary
                </Button>
              )}
              {shown.length > 1 && (
                <Button size="sm" variant="ghost" onClick={() => remove(userId)} aria-label={`Remove ${nameOf(userId)} from the authors`}>
                  Remove
                </Button>
              )}
            </span>
          </li>
        ))}
      </ol>
      {addable.length > 0 && shown.length < MAX_AUTHORS && (
        <div className="flex items-center gap-2">
          <label htmlFor={selectId} className="sr-only">
            Add an author
          </label>
          <select id={selectId} value={adding} onChange={(e) => setAdding(e.target.value)} className={SELECT}>
            <option value="">Add an author…</option>
            {addable.map((m) => (
              <option key={m.userId} value={m.userId}>
                {m.name} ({m.role})
              </option>
            ))}
          </select>
          <Button size="sm" variant="secondary" onClick={add} disabled={!adding}>
            Add
          </Button>
        </div>
      )}
      {error && (
        <p role="alert" className="text-xs text-red-600">
          {error}
        </p>
      )}
    </section>
  );
}
