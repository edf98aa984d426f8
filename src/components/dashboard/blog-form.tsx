"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { Button } from "~/components/ui/button";
import { Card, CardTitle } from "~/components/ui/card";
import { ConfirmDialog } from "~/components/ui/dialog";
import { Field, Input, Textarea } from "~/components/ui/input";
import { cn } from "~/lib/cn";
import type { BlogView } from "~/server/blogs/blog-view";
import { api, errorMessage, isPreconditionFailed } from "~/trpc/react";
import { trpc } from "~/trpc/query-keys";
import { LocalTime } from "~/components/ui/local-time";
import { BlogContentEditor, type ContentView } from "./blog-content-editor";
import { characterCount, differs, EMPTY, fieldError, serverErrors, TEXT_FIELDS, validate, valuesOf, type Errors, type TextField, type Values } from "./blog-form-values";
import { BlogVisibilityCard } from "./blog-visibility-card";
import { ConflictDialog } from "./conflict-dialog";
import { CoverImagePicker } from "./cover-image-picker";
import { useLocalDraft } from "./local-draft";
import { TagInput } from "./tag-input";
import { useUnsavedChangesGuard } from "./unsaved-changes";

/**
 * The blog's form, for a new blog or an existing one. An existing blog is saved with If-Match, the
 * ETag it was loaded (or last saved) with: when someone else changed it meanwhile, the owner chooses
 * to load that version or overwrite it with their own (`onReload` loads it afresh; `onSaved` is told each save).
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
  const isNew = !blog;
  const router = useRouter();
  const queryClient = useQueryClient();
  const formRef = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState<Values>(blog ? valuesOf(blog) : EMPTY);
  const [errors, setErrors] = useState<Errors>({});
  const [saved, setSaved] = useState<BlogView | undefined>(blog);
  const [savedTag, setSavedTag] = useState(entityTag ?? null);
  const [notice, setNotice] = useState("");
  const [contentView, setContentView] = useState<ContentView>("write");
  const [confirmOpen, setConfirmOpen] = useState(false);
  const [conflict, setConflict] = useState(false);
  // Bumped to move the focus to the first invalid field once the errors have rendered.
  const [focusRequest, setFocusRequest] = useState(0);

  const savedValues = saved ? valuesOf(saved) : EMPTY;
  const dirty = differs(values, savedValues);
  useUnsavedChangesGuard(dirty);
  const localDraft = useLocalDraft(`blogmgr:draft:${blog?.id ?? "new"}`, values, dirty, (kept) => differs(kept, savedValues));
  const knownTags = useQuery({ queryKey: trpc.tags.list.queryKey(), queryFn: async () => (await api.tags.list.query({})).data.tags });

  useEffect(() => {
    if (focusRequest > 0) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [focusRequest]);

  /** Shows `found` and, when a field is among them, takes the owner there. */
  const showErrors = (found: Errors) => {
    setErrors(found);
    if (found.content) setContentView("write");
    if (TEXT_FIELDS.some((field) => found[field])) setFocusRequest((n) => n + 1);
  };

  const set = <K extends keyof Values>(field: K, value: Values[K]) => {
    setValues((v) => ({ ...v, [field]: value }));
    setNotice("");
    if (typeof value === "string" && (TEXT_FIELDS as readonly string[]).includes(field)) {
      // Inline: the message appears (or goes) as the owner types.
      setErrors((e) => ({ ...e, [field]: fieldError(field as TextField, value, isNew), form: undefined }));
    }
  };

  const save = useMutation({
    /** Saves `values`; over whatever is stored when `overwrite`, else only over the version loaded. */
    mutationFn: async ({ values: v, overwrite }: { values: Values; overwrite: boolean }) => {
      const { publishAt, coverImage, ...rest } = v;
      // The schedule is sent only when the owner changed it, so a save leaves an API-set moment (to the second) alone.
      const schedule = publishAt === savedValues.publishAt ? {} : { publishAt: publishAt ? new Date(publishAt).toISOString() : null };
      // The cover too: one deleted since the form loaded is already cleared, not to be sent back.
      const cover = coverImage === savedValues.coverImage ? {} : { coverImage };
      const fields = { ...rest, ...schedule, ...cover, blogSlug: v.blogSlug || undefined };
      if (!saved) return { blog: (await api.blogs.create.mutate(fields)).data.blog, entityTag: null };
      let answeredTag: string | null = null;
      const context = { ifMatch: overwrite ? undefined : (savedTag ?? undefined), onEntityTag: (tag: string | null) => (answeredTag = tag) };
      const { data } = await api.blogs.update.mutate({ blogId: saved.id, ...fields }, { context });
      return { blog: data.blog, entityTag: answeredTag };
    },
    onSuccess: ({ blog: result, entityTag: tag }) => {
      void queryClient.invalidateQueries({ queryKey: trpc.blogs.list.queryKey() });
      if (isNew) {
        localDraft.discard();
        router.push(`/dashboard/blogs/${result.id}?created=1`);
        return;
      }
      setSaved(result);
      setSavedTag(tag);
      setValues(valuesOf(result));
      setConflict(false);
      setNotice("Saved.");
      onSaved?.(result, tag);
    },
    onError: (error) => {
      if (isPreconditionFailed(error)) setConflict(true);
      else showErrors(serverErrors(error));
    },
  });

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
    const found = validate(values, isNew);
    showErrors(found);
    if (Object.keys(found).length > 0) return;
    save.mutate({ values, overwrite: false });
  }

  const count = (field: TextField, max: number) => characterCount(values[field], max);

  return (
    <form ref={formRef} onSubmit={onSubmit} noValidate className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
      {localDraft.offer && (
        <div role="region" aria-label="Unsaved changes" className="rounded-md border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950 lg:col-span-2">
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
      <div className="space-y-6">
        <Card className="space-y-2">
          <Field label="Title" error={errors.title} hint={count("title", 200)}>
            {(props) => <Input {...props} value={values.title} onChange={(e) => set("title", e.target.value)} required />}
          </Field>
          <Field
            label="Slug"
            error={errors.blogSlug}
            hint={isNew ? "Lowercase letters, digits and hyphens. Leave empty to derive it from the title." : "Lowercase letters, digits and hyphens."}
          >
            {(props) => (
              <Input
                {...props}
                value={values.blogSlug}
                onChange={(e) => set("blogSlug", e.target.value)}
                autoCapitalize="none"
                spellCheck={false}
                className="font-mono"
              />
            )}
          </Field>
          <Field label="Description" error={errors.description} hint={count("description", 1000)}>
            {(props) => <Textarea {...props} rows={2} value={values.description} onChange={(e) => set("description", e.target.value)} />}
          </Field>
          <TagInput
            tags={values.tags}
            onChange={(tags) => {
              set("tags", tags);
              setErrors((e) => ({ ...e, tags: undefined }));
            }}
            suggestions={(knownTags.data ?? []).map((t) => t.name)}
            error={errors.tags}
          />
        </Card>

        <BlogContentEditor
          content={values.content}
          onChange={(content) => set("content", content)}
          error={errors.content}
          view={contentView}
          onViewChange={setContentView}
        />
      </div>

      <div className="space-y-6">
        <Card className="space-y-3">
          <CardTitle>Cover image</CardTitle>
          <CoverImagePicker
            imageId={values.coverImage}
            onChange={(coverImage) => {
              set("coverImage", coverImage);
              setErrors((e) => ({ ...e, coverImage: undefined }));
            }}
          />
          {errors.coverImage && (
            <p role="alert" className="text-xs text-red-600">
              {errors.coverImage}
            </p>
          )}
        </Card>

        <BlogVisibilityCard
          values={values}
          onChange={set}
          scheduleError={errors.publishAt}
          onScheduleEdit={() => setErrors((er) => ({ ...er, publishAt: undefined }))}
          scheduledFor={saved?.publishAt && values.publishAt === savedValues.publishAt ? saved.publishAt : null}
          publicPath={saved?.isPublic ? `/${handle}/${saved.blogSlug}` : null}
        />

        <Card className="space-y-2">
          <CardTitle>Search engines</CardTitle>
          <Field label="SEO title" error={errors.seoTitle} hint={`Defaults to the title. ${count("seoTitle", 200)}`}>
            {(props) => <Input {...props} value={values.seoTitle} onChange={(e) => set("seoTitle", e.target.value)} />}
          </Field>
          <Field label="SEO description" error={errors.seoDescription} hint={`Defaults to the description. ${count("seoDescription", 500)}`}>
            {(props) => <Textarea {...props} rows={3} value={values.seoDescription} onChange={(e) => set("seoDescription", e.target.value)} />}
          </Field>
        </Card>

        <div className="space-y-3">
          <p role="status" className={cn("min-h-5 text-sm", errors.form ? "text-red-600" : "text-emerald-700")}>
            {errors.form ?? notice}
          </p>
          <div className="flex flex-wrap gap-3">
            <Button type="submit" loading={save.isPending}>
              {isNew ? "Create blog" : "Save changes"}
            </Button>
            <Link href="/dashboard" className="inline-flex h-10 items-center px-2 text-sm text-slate-600 hover:text-slate-900">
              Back to blogs
            </Link>
          </div>
          {saved && (
            <ConfirmDialog
              open={confirmOpen}
              onOpenChange={setConfirmOpen}
              trigger={
                <Button variant="danger">Delete blog</Button>
              }
              title={`Delete “${saved.title}”?`}
              description={
                <p>
                  The blog is deleted for good: its public page and its API access go away at once. This can&apos;t be undone.
                </p>
              }
              confirmLabel="Delete for good"
              busy={remove.isPending}
              onConfirm={() => remove.mutate(saved.id)}
            />
          )}
          <ConflictDialog
            open={conflict}
            onOpenChange={setConflict}
            busy={save.isPending}
            onReload={() => {
              setConflict(false);
              onReload?.();
            }}
            onOverwrite={() => save.mutate({ values, overwrite: true })}
          />
        </div>
      </div>
    </form>
  );
}
