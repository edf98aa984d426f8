"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { ConfirmDialog } from "~/components/ui/dialog";
import { LocalTime } from "~/components/ui/local-time";
import { Sheet } from "~/components/ui/sheet";
import { useWideScreen } from "~/components/ui/use-wide-screen";
import { cn } from "~/lib/cn";
import type { BlogView } from "~/server/blogs/blog-view";
import { api, errorMessage } from "~/trpc/react";
import { trpc } from "~/trpc/query-keys";
import { BlogContentEditor, type ContentView } from "./blog-content-editor";
import { afterSave, characterCount, differs, EMPTY, fieldError, TEXT_FIELDS, validate, valuesOf, type Errors, type TextField, type Values } from "./blog-form-values";
import { BlogHistory } from "./blog-history";
import { BlogSettings, SETTINGS_FIELDS } from "./blog-settings";
import { ConflictDialog } from "./conflict-dialog";
import { useLocalDraft } from "./local-draft";
import { emailChoiceOpen, NewsletterProgressLine } from "./newsletter-choice";
import { PublishControl, type StatusChange } from "./publish-control";
import { SharePreview } from "./share-preview";
import { useBlogSaver } from "./blog-saver";
import { useAuthorChoices } from "./author-picker";
import { InReviewBadge, SubmitForReview, useDraftsInReview } from "./review-state";
import { useUnsavedChangesGuard } from "./unsaved-changes";

const STATUS_LABELS = { draft: "Draft", scheduled: "Scheduled", published: "Published" } as const;
const STATUS_TONES = { draft: "neutral", scheduled: "amber", published: "green" } as const;

/**
 * The blog's editor, for a new blog or an existing one (docs/dashboard.md, The editor): the title
 * and the body first, the settings in a side panel (desktop) or a sheet (phone), and a sticky bar
 * with the status, the save state and the one status control. A blog that is not published is
 * saved as the owner writes (blog-saver.ts); a published one when the owner chooses "Update".
 * `onReload` loads the blog afresh after a conflict; `onSaved` is told each save.
 */
export function BlogForm({
  blog,
  entityTag,
  handle,
  onSaved,
  onReload,
}: {
  blog?: BlogView;
  entityTag?: string | null;
  handle: string;
  onSaved?: (blog: BlogView, entityTag: string | null) => void;
  onReload?: () => void;
}) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const formRef = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState<Values>(blog ? valuesOf(blog) : EMPTY);
  const [errors, setErrors] = useState<Errors>({});
  const [contentView, setContentView] = useState<ContentView>("write");
  const [confirmOpen, setConfirmOpen] = useState(false);
  const [panelOpen, setPanelOpen] = useState(true);
  const [sheetOpen, setSheetOpen] = useState(false);
  // Bumped to move the focus to the first invalid field once the errors have rendered.
  const [focusRequest, setFocusRequest] = useState(0);
  const isDesktop = useWideScreen();
  const inReviewIds = useDraftsInReview();
  const choices = useAuthorChoices();

  /** Shows `found`; after an action of the owner's (not an autosave) takes them to the first field concerned. */
  const showErrors = (found: Errors, takeThere: boolean) => {
    setErrors(found);
    if (!takeThere) return;
    if (found.content) setContentView("write");
    // On a phone the settings are in a sheet: opened when the first problem is there.
    if (!isDesktop && !found.title && !found.content && SETTINGS_FIELDS.some((field) => found[field])) setSheetOpen(true);
    if (TEXT_FIELDS.some((field) => found[field])) setFocusRequest((n) => n + 1);
  };

  const saver = useBlogSaver({
    blog,
    entityTag: entityTag ?? null,
    values,
    onSaved: (saved, tag, sentValues) => {
      setValues((current) => afterSave(current, sentValues, valuesOf(saved)));
      setErrors((e) => ({ ...e, form: undefined }));
      void queryClient.invalidateQueries({ queryKey: trpc.blogs.list.queryKey() });
      // Publishing or scheduling a draft in review clears its mark.
      if (saved.status !== "draft") void queryClient.invalidateQueries({ queryKey: trpc.blogs.review.list.queryKey() });
      void queryClient.invalidateQueries({ queryKey: trpc.blogs.revisions.list.queryKey({ blogId: saved.id }) });
      onSaved?.(saved, tag);
    },
    onCreated: () => localDraft.discard(),
    onRefused: (found, byOwner) => showErrors(found, byOwner),
  });
  const { saved } = saver;
  const savedValues = saved ? valuesOf(saved) : EMPTY;
  const dirty = differs(values, savedValues);
  useUnsavedChangesGuard(dirty);
  const localDraft = useLocalDraft(`blogmgr:draft:${saved?.id ?? "new"}`, values, dirty, (kept) => differs(kept, savedValues));

  /** Takes the focus to the first invalid field, if any: then a closing panel does not take it back to its button. */
  const focusFirstInvalid = (event?: Event) => {
    const invalid = formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    if (!invalid) return;
    event?.preventDefault();
    invalid.focus();
  };
  useEffect(() => {
    if (focusRequest > 0) focusFirstInvalid();
  }, [focusRequest]);

  const set = <K extends keyof Values>(field: K, value: Values[K]) => {
    setValues((v) => ({ ...v, [field]: value }));
    if (typeof value === "string" && (TEXT_FIELDS as readonly string[]).includes(field)) {
      // Inline: the message appears (or goes) as the owner types.
      setErrors((e) => ({ ...e, [field]: fieldError(field as TextField, value, !saved), form: undefined }));
    }
  };

  /** Saves the pending edits, with a status change when one is given; answers whether it went through. */
  const saveNow = (change?: StatusChange) => {
    const found = validate(values, !saved);
    showErrors(found, true);
    if (Object.keys(found).length > 0) return Promise.resolve(false);
    return saver.save(values, { change });
  };

  const remove = useMutation({
    mutationFn: (blogId: string) => api.blogs.delete.mutate({ blogId }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: trpc.blogs.list.queryKey() });
      router.push("/dashboard");
    },
    onError: (error) => {
      setConfirmOpen(false);
      setErrors({ form: errorMessage(error) });
    },
  });

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    void saveNow();
  }

  const status = saved?.status ?? "draft";
  const inReview = status === "draft" && saved !== undefined && (inReviewIds.data?.has(saved.id) ?? false);
  // A contributor's way to publish (docs/authors.md, Review): offered on a draft of theirs; the others publish it themselves.
  const you = choices.data?.members.find((member) => member.userId === choices.data?.you);
  const asksForReview = you?.role === "contributor" && saved !== undefined && saved.authors.includes(you.userId);
  // A status change replaces the publish control, and the panel that held the focus goes with it:
  // the focus moves to the new control (its trigger) rather than falling to the page's body.
  const previousStatus = useRef(status);
  useEffect(() => {
    if (previousStatus.current === status) return;
    previousStatus.current = status;
    // After the closing panel's own focus handling, which runs on the next task.
    const timer = setTimeout(() => {
      if (document.activeElement === document.body) formRef.current?.querySelector<HTMLElement>("[data-publish-trigger]")?.focus();
    });
    return () => clearTimeout(timer);
  }, [status]);
  const publicPath = `/${handle}/${values.blogSlug || saved?.blogSlug || "…"}`;
  const settings = (
    <BlogSettings
      values={values}
      errors={errors}
      onChange={set}
      onErrorsChange={(change) => setErrors((e) => ({ ...e, ...change }))}
      saved={saved}
      handle={handle}
    />
  );

  return (
    <form ref={formRef} onSubmit={onSubmit} onBlur={saver.flush} noValidate>
      {/* Focusable by script: where focus goes when the element that held it is gone (src/components/ui/dialog.tsx). */}
      <h1 tabIndex={-1} className="sr-only">
        {saved ? `Edit “${saved.title}”` : "New blog"}
      </h1>
      <div data-editor-bar className="sticky top-0 z-30 -mx-4 mb-4 flex flex-wrap items-center gap-x-3 gap-y-2 border-b border-slate-200 bg-white px-4 py-2">
        <Link
          href="/dashboard"
          aria-label="Back to blogs"
          className="rounded text-sm font-medium text-slate-700 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600"
        >
          <span aria-hidden>← </span>Blogs
        </Link>
        {/* Its lines keep their height as the save state changes: the page never shifts under the owner's pointer. */}
        <div className="flex min-w-0 flex-1 flex-col items-start gap-0.5 text-sm sm:flex-row sm:flex-wrap sm:items-center sm:gap-x-2" data-testid="blog-state">
          <span className="flex items-center gap-2">
            <Badge tone={STATUS_TONES[status]}>{STATUS_LABELS[status]}</Badge>
            {inReview && <InReviewBadge />}
          {status === "published" && saved && (
            // A plain link: the public site is static HTML outside Next's router (docs/public-blog.md).
            <a href={`/${handle}/${saved.blogSlug}`} aria-label={`View public page /${handle}/${saved.blogSlug}`} className="text-indigo-700 underline">
              View
            </a>
          )}
          </span>
          {status === "scheduled" && saved?.publishAt && (
            <span className="text-xs text-slate-700">
              Scheduled for <LocalTime iso={saved.publishAt} />
            </span>
          )}
          {saved?.emailedAt && <NewsletterProgressLine blogId={saved.id} />}
          <span role="status" className={cn("min-h-4 text-xs whitespace-nowrap", errors.form ? "whitespace-normal text-red-700" : "text-slate-600")}>
            {errors.form ?? saver.indicator(dirty)}
          </span>
        </div>
        <div className="flex items-center gap-2">
          {isDesktop ? (
            <Button variant="ghost" aria-expanded={panelOpen} aria-controls="blog-settings-panel" onClick={() => setPanelOpen((open) => !open)}>
              Settings
            </Button>
          ) : (
            <Sheet
              open={sheetOpen}
              onOpenChange={setSheetOpen}
              title="Settings"
              trigger={<Button variant="ghost">Settings</Button>}
            >
              {settings}
            </Sheet>
          )}
          {status === "published" && (
            <Button type="submit" loading={saver.busy}>
              Update
            </Button>
          )}
          {saved && status === "draft" && !inReview && asksForReview && (
            <SubmitForReview blogId={saved.id} beforeSubmit={() => (dirty ? saveNow() : Promise.resolve(true))} onError={(form) => setErrors((e) => ({ ...e, form }))} />
          )}
          <PublishControl
            status={status}
            publishAt={saved?.publishAt ?? null}
            publicPath={publicPath}
            busy={saver.busy}
            onChange={saveNow}
            onCloseAutoFocus={focusFirstInvalid}
            email={{ offered: emailChoiceOpen(saved), checked: saved?.emailSubscribers ?? false, blogId: saved?.id }}
          />
        </div>
      </div>

      {localDraft.offer && (
        <div role="region" aria-label="Unsaved changes" className="mb-4 rounded-md border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950">
          <p>
            Unsaved changes from <LocalTime iso={localDraft.offer.keptAt} /> were kept in this browser.
          </p>
          <div className="mt-2 flex flex-wrap gap-2">
            <Button
              size="sm"
              onClick={() => {
                const kept = localDraft.restore();
                if (kept) setValues({ ...EMPTY, ...kept });
              }}
            >
              Restore unsaved changes
            </Button>
            <Button size="sm" variant="secondary" onClick={localDraft.discard}>
              Discard them
            </Button>
          </div>
        </div>
      )}

      <div className={cn("grid grid-cols-1 gap-6", isDesktop && panelOpen && "grid-cols-[minmax(0,1fr)_20rem]")}>
        <div className="min-w-0 space-y-6">
          <div>
            <label htmlFor="blog-title" className="sr-only">
              Title
            </label>
            <textarea
              id="blog-title"
              rows={1}
              value={values.title}
              placeholder="Title"
              onChange={(e) => set("title", e.target.value.replace(/\n/g, " "))}
              // One line of text that wraps: Enter goes on to the body instead of breaking it.
              onKeyDown={(e) => {
                if (e.key !== "Enter") return;
                e.preventDefault();
                formRef.current?.querySelector<HTMLElement>("[data-content-editor] textarea, [data-content-editor] [contenteditable]")?.focus();
              }}
              aria-invalid={Boolean(errors.title) || undefined}
              aria-describedby="blog-title-error"
              className="field-sizing-content block w-full resize-none border-0 bg-transparent p-0 text-3xl font-bold tracking-tight text-slate-900 placeholder:text-slate-400 focus:outline-none sm:text-4xl"
            />
            <p id="blog-title-error" role={errors.title ? "alert" : undefined} className="mt-1 min-h-4 text-xs text-red-600">
              {errors.title ?? (values.title.length > 180 ? characterCount(values.title, 200) : "")}
            </p>
          </div>

          <div data-content-editor>
            <BlogContentEditor
              content={values.content}
              onChange={(content) => set("content", content)}
              error={errors.content}
              view={contentView}
              onViewChange={setContentView}
            />
          </div>

          {saved && (
            <div className="grid grid-cols-1 gap-6 xl:grid-cols-2">
              <BlogHistory
                blog={saved}
                entityTag={saver.entityTag}
                onRestored={(restored, tag) => {
                  saver.adopt(restored, tag);
                  setValues(valuesOf(restored));
                  onSaved?.(restored, tag);
                }}
                onConflict={() => onReload?.()}
              />
              <SharePreview blogId={saved.id} />
            </div>
          )}

          {saved && (
            <ConfirmDialog
              open={confirmOpen}
              onOpenChange={setConfirmOpen}
              trigger={<Button variant="danger">Delete blog</Button>}
              title={`Delete “${saved.title}”?`}
              description={
                <p>The blog is deleted for good: its public page and its API access go away at once. This can&apos;t be undone.</p>
              }
              confirmLabel="Delete for good"
              busy={remove.isPending}
              onConfirm={() => remove.mutate(saved.id)}
            />
          )}
        </div>

        {isDesktop && panelOpen && (
          <aside id="blog-settings-panel" aria-label="Settings" className="self-start rounded-lg border border-slate-200 bg-white p-4">
            {settings}
          </aside>
        )}
      </div>

      <ConflictDialog
        open={saver.conflict}
        onOpenChange={saver.setConflict}
        busy={saver.busy}
        onReload={() => {
          saver.setConflict(false);
          onReload?.();
        }}
        onOverwrite={() => void saver.save(values, { overwrite: true })}
      />
    </form>
  );
}
