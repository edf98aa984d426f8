"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { Button } from "~/components/ui/button";
import { Card, CardTitle } from "~/components/ui/card";
import { CopyButton } from "~/components/ui/copy-button";
import { ConfirmDialog } from "~/components/ui/dialog";
import { LocalTime } from "~/components/ui/local-time";
import { DEFAULT_PREVIEW_LIFETIME, PREVIEW_LIFETIME_NAMES, PREVIEW_LIFETIMES, type PreviewLifetime } from "~/shared/preview-lifetimes";
import { api, errorMessage } from "~/trpc/react";
import { trpc } from "~/trpc/query-keys";

/**
 * "Share preview" (docs/api.md, preview links): a secret link to the blog as its public page will
 * look, for people without an account; shown once when made, listed with its expiry, revocable.
 */
export function SharePreview({ blogId }: { blogId: string }) {
  const queryClient = useQueryClient();
  const selectId = useId();
  const [lifetime, setLifetime] = useState<PreviewLifetime>(DEFAULT_PREVIEW_LIFETIME);
  const [created, setCreated] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<string | null>(null);
  const [problem, setProblem] = useState("");
  const queryKey = trpc.blogs.previews.list.queryKey({ blogId });
  const links = useQuery({ queryKey, queryFn: () => api.blogs.previews.list.query({ blogId }) });
  const create = useMutation({
    mutationFn: () => api.blogs.previews.create.mutate({ blogId, lifetime }),
    onSuccess: (link) => {
      setCreated(`${window.location.origin}${link.path}`);
      setProblem("");
      void queryClient.invalidateQueries({ queryKey });
    },
    onError: (error) => setProblem(errorMessage(error)),
  });
  const revoke = useMutation({
    mutationFn: (previewId: string) => api.blogs.previews.revoke.mutate({ blogId, previewId }),
    onSuccess: () => {
      setRevoking(null);
      setCreated(null);
      void queryClient.invalidateQueries({ queryKey });
    },
    onError: (error) => {
      setRevoking(null);
      setProblem(errorMessage(error));
    },
  });

  return (
    <Card className="space-y-3">
      <CardTitle>Share preview</CardTitle>
      <p className="text-sm text-slate-600">A secret link showing this blog as its public page will look, to anyone who has it, even before it is published.</p>
      <div className="flex flex-wrap items-end gap-2">
        <div className="space-y-1">
          <label htmlFor={selectId} className="block text-sm font-medium text-slate-800">
            Link works for
          </label>
          <select
            id={selectId}
            value={lifetime}
            onChange={(event) => setLifetime(PREVIEW_LIFETIME_NAMES.find((name) => name === event.target.value) ?? DEFAULT_PREVIEW_LIFETIME)}
            className="h-10 rounded-md border border-slate-300 bg-white px-2 text-sm focus-visible:outline-2 focus-visible:outline-indigo-600"
          >
            {PREVIEW_LIFETIME_NAMES.map((name) => (
              <option key={name} value={name}>
                {PREVIEW_LIFETIMES[name].label}
              </option>
            ))}
          </select>
        </div>
        <Button variant="secondary" loading={create.isPending} onClick={() => create.mutate()}>
          Create preview link
        </Button>
      </div>
      {created && (
        <div className="space-y-2 rounded-md border border-amber-300 bg-amber-50 p-3">
          <p className="text-sm text-amber-950">Copy the link now: it is shown only once.</p>
          {/* The whole link in view however narrow the card: it wraps, a line holding as much as the card's width. */}
          <textarea
            readOnly
            aria-label="Preview link"
            value={created}
            rows={3}
            spellCheck={false}
            data-testid="preview-link"
            onFocus={(event) => event.currentTarget.select()}
            className="block w-full resize-none rounded-md border border-amber-300 bg-white px-3 py-2 font-mono text-sm break-all text-slate-900 field-sizing-content"
          />
          <CopyButton key={created} text={created} label="Copy link" announce="Link copied to the clipboard" />
        </div>
      )}
      {links.data && links.data.length > 0 && (
        <ul aria-label="Active preview links" className="divide-y divide-slate-200 rounded-md border border-slate-200">
          {links.data.map((link) => (
            <li key={link.id} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2 text-sm">
              <span className="text-slate-700">
                Made <LocalTime iso={link.createdAt} />, works until <LocalTime iso={link.expiresAt} />
              </span>
              <ConfirmDialog
                open={revoking === link.id}
                onOpenChange={(open) => setRevoking(open ? link.id : null)}
                trigger={
                  <Button variant="danger" size="sm">
                    Revoke
                  </Button>
                }
                title="Revoke this preview link?"
                description={<p>Anyone opening it from now on gets “page not found”. A new link can be made at any time.</p>}
                confirmLabel="Revoke link"
                busy={revoke.isPending}
                onConfirm={() => revoke.mutate(link.id)}
              />
            </li>
          ))}
        </ul>
      )}
      <p role="alert" className="min-h-5 text-sm text-red-600">
        {problem}
      </p>
    </Card>
  );
}
