"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useEffect, useId, useMemo, useState } from "react";
import { Button } from "~/components/ui/button";
import { Skeleton } from "~/components/ui/card";
import { cn } from "~/lib/cn";
import { api, errorMessage } from "~/trpc/react";
import { trpc } from "~/trpc/query-keys";
import { validDraft, type PublicationFormValues } from "./publication-form-values";

/** How long typing pauses before the preview is made again. */
const PREVIEW_DELAY_MS = 400;

/** `value`, once it has stayed the same for `delay` ms. */
function useSettled<T>(value: T, delay: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return settled;
}

/**
 * The home as readers will see it with the form's valid fields (src/server/publication/preview.ts),
 * made by the public site's own renderer. The page is shown in a sandboxed frame: no script runs
 * in it, and its links open nothing.
 */
export function PublicationPreview({ values, handle }: { values: PublicationFormValues; handle: string }) {
  const [shown, setShown] = useState(false);
  const draft = useSettled(useMemo(() => validDraft(values), [values]), PREVIEW_DELAY_MS);
  const preview = useQuery({
    queryKey: trpc.publication.preview.queryKey(draft),
    queryFn: () => api.publication.preview.query(draft),
    placeholderData: keepPreviousData,
  });
  const panelId = useId();
  return (
    <section aria-labelledby={`${panelId}-heading`} className="min-w-0 xl:sticky xl:top-4">
      <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
        <h2 id={`${panelId}-heading`} className="text-lg font-semibold text-slate-900">
          Preview
        </h2>
        <Button variant="secondary" size="sm" className="xl:hidden" aria-expanded={shown} aria-controls={panelId} onClick={() => setShown((s) => !s)}>
          {shown ? "Hide preview" : "Show preview"}
        </Button>
      </div>
      <div id={panelId} className={cn(shown ? "block" : "hidden", "space-y-2 xl:block")}>
        <p className="text-sm text-slate-600">
          Your home page, /{handle}, with your changes, before you save them.{" "}
          <span aria-live="polite">{preview.isFetching ? "Updating…" : ""}</span>
        </p>
        {preview.error && (
          <p role="alert" className="text-sm text-red-600">
            Couldn&apos;t make the preview: {errorMessage(preview.error)}
          </p>
        )}
        {preview.data ? (
          <iframe
            title="Preview of your publication's home page"
            sandbox=""
            srcDoc={preview.data.html}
            className="h-[70vh] min-h-96 w-full rounded-lg border border-slate-300 bg-white"
          />
        ) : (
          !preview.error && <Skeleton className="h-[70vh] min-h-96 w-full" />
        )}
      </div>
    </section>
  );
}
