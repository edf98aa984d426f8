"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { createPortal } from "react-dom";
import { Button } from "~/components/ui/button";
import { Toast, type ToastMessage } from "~/components/ui/toast";
import { formatNewsletterProgress, formatSubscriberCount } from "~/lib/format";
import type { BlogView } from "~/server/blogs/blog-view";
import { api, errorMessage } from "~/trpc/react";
import { trpc } from "~/trpc/query-keys";

/** How often the editor reads a newsletter's progress while it is sending. */
export const NEWSLETTER_POLL_MS = 3000;

/**
 * Whether the blog may still ask to be emailed (docs/newsletters.md, Emailing a post): only until it
 * has been public or emailed; a blog not saved yet may.
 */
export function emailChoiceOpen(saved: BlogView | undefined): boolean {
  return !saved || (saved.publishedAt === null && saved.emailedAt === null);
}

/** The account's active subscribers: whom a post emailed now would go to; undefined while loading. */
export function useAudience(enabled: boolean): number | undefined {
  const audience = useQuery({ queryKey: trpc.newsletters.audience.queryKey(), queryFn: () => api.newsletters.audience.query(), enabled });
  return audience.data?.active;
}

/**
 * The publish panel's choice to email the post (publish-control.tsx): "Email to N subscribers",
 * or, with none yet, a word and the way to the Subscribers page; and a test copy to the owner.
 */
export function EmailChoice({
  audience,
  checked,
  onCheckedChange,
  blogId,
}: {
  audience: number | undefined;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  /** The saved blog's id, for a test email; absent for a blog not saved yet. */
  blogId?: string;
}) {
  const [toast, setToast] = useState<ToastMessage | null>(null);
  const [problem, setProblem] = useState("");
  const sendTest = useMutation({
    mutationFn: (id: string) => api.newsletters.sendTest.mutate({ blogId: id }),
    onSuccess: ({ to }) => {
      setProblem("");
      setToast({ id: Date.now(), text: `Test email sent to ${to}` });
    },
    onError: (error) => setProblem(errorMessage(error)),
  });

  if (audience === undefined) return <p className="mt-3 text-slate-600">Counting your subscribers…</p>;
  return (
    <div className="mt-3 space-y-2" data-testid="email-choice">
      {audience === 0 ? (
        <p className="text-slate-700">
          No one will be emailed: you have no active subscribers yet.{" "}
          <Link href="/dashboard/subscribers" prefetch={false} className="text-indigo-700 underline">
            Subscribers
          </Link>
        </p>
      ) : (
        <label className="flex items-start gap-2 text-slate-900">
          <input type="checkbox" className="mt-0.5 size-4 accent-indigo-600" checked={checked} onChange={(e) => onCheckedChange(e.target.checked)} />
          <span>
            Email to {formatSubscriberCount(audience)}
            <span className="block text-xs text-slate-600">Once, when it first becomes public.</span>
          </span>
        </label>
      )}
      {blogId && (
        <div className="flex flex-wrap items-center gap-2">
          <Button size="sm" variant="secondary" loading={sendTest.isPending} onClick={() => sendTest.mutate(blogId)}>
            Send test email
          </Button>
          {problem && (
            <p role="alert" className="text-xs text-red-700">
              {problem}
            </p>
          )}
        </div>
      )}
      {/* At the screen's foot: within the panel's box (which is translated) it would cover the panel's buttons. */}
      {createPortal(<Toast message={toast} onDismiss={() => setToast(null)} />, document.body)}
    </div>
  );
}

/**
 * A sent post's email, as far as it has gone: read every NEWSLETTER_POLL_MS while sending, once
 * otherwise. Nothing until the newsletter exists.
 */
export function NewsletterProgressLine({ blogId }: { blogId: string }) {
  const progress = useQuery({
    queryKey: trpc.blogs.newsletter.queryKey({ blogId }),
    queryFn: async () => (await api.blogs.newsletter.query({ blogId })).data.newsletter,
    refetchInterval: (query) => (query.state.data?.status === "sending" ? NEWSLETTER_POLL_MS : false),
  });
  const newsletter = progress.data;
  if (!newsletter || newsletter.status === "none") return null;
  return (
    <span className="text-xs text-slate-700" data-testid="newsletter-progress">
      {newsletter.status === "sending" ? "Emailing subscribers: " : "Emailed: "}
      {formatNewsletterProgress(newsletter)}
    </span>
  );
}
