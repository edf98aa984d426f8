"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { Markdown } from "~/components/markdown";
import { Button } from "~/components/ui/button";
import { Card, CardTitle } from "~/components/ui/card";
import { ConfirmDialog } from "~/components/ui/dialog";
import { Field, Input, Textarea } from "~/components/ui/input";
import { Switch } from "~/components/ui/switch";
import { cn } from "~/lib/cn";
import { asSentence } from "~/lib/format";
import type { ImageView } from "~/server/api/routers/images/schemas";
import type { BlogView } from "~/server/blogs/blog-view";
import { optionalBlogFields, requiredTitle } from "~/shared/blog-fields";
import { api, errorMessage, fieldErrors, isPreconditionFailed } from "~/trpc/react";
import { trpc } from "~/trpc/query-keys";
import { LocalTime } from "~/components/ui/local-time";
import { AltTextDialog } from "./alt-text-dialog";
import { ConflictDialog } from "./conflict-dialog";
import { CoverImagePicker } from "./cover-image-picker";
import { ChooseImageButton, UploadStatus, useImageUpload } from "./image-upload";
import { imageMarkdown } from "./images-client";
import { useLocalDraft } from "./local-draft";
import { TagInput } from "./tag-input";
import { useUnsavedChangesGuard } from "./unsaved-changes";

const TEXT_FIELDS = ["title", "blogSlug", "description", "content", "seoTitle", "seoDescription"] as const;
type TextField = (typeof TEXT_FIELDS)[number];
/** How the form names each field: the API's messages start with the field's API name. */
const FIELD_LABELS: Record<TextField, string> = {
  title: "Title",
  blogSlug: "Slug",
  description: "Description",
  content: "Content",
  seoTitle: "SEO title",
  seoDescription: "SEO description",
};
/** The API's rule of each text field, with its message (src/shared/blog-fields.ts). */
const FIELD_RULES = { ...optionalBlogFields, title: requiredTitle } satisfies Record<TextField, unknown>;
/**
 * publishAt as the date-time picker holds it: local time, "YYYY-MM-DDTHH:mm", or "" for none;
 * coverImage an image id, or null for none.
 */
type Values = Record<TextField, string> & { isPublic: boolean; allowApiAccess: boolean; tags: string[]; publishAt: string; coverImage: string | null };
/** Fields the server may name in a refusal, besides the text fields. */
const OTHER_FIELDS = ["tags", "publishAt", "coverImage"] as const;
type Errors = Partial<Record<TextField | (typeof OTHER_FIELDS)[number] | "form", string>>;

const EMPTY: Values = {
  title: "",
  blogSlug: "",
  description: "",
  content: "",
  seoTitle: "",
  seoDescription: "",
  isPublic: false,
  allowApiAccess: true,
  tags: [],
  publishAt: "",
  coverImage: null,
};

/** A moment as the date-time picker shows it, in the owner's time zone. */
function toLocalInput(iso: string | null): string {
  if (!iso) return "";
  const at = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

/** The form's values of a stored blog. */
function valuesOf(blog: BlogView): Values {
  const { title, blogSlug, description, content, seoTitle, seoDescription, isPublic, allowApiAccess, tags, coverImage } = blog;
  return { title, blogSlug, description, content, seoTitle, seoDescription, isPublic, allowApiAccess, tags, coverImage, publishAt: toLocalInput(blog.publishAt) };
}

/** The API's message about a field in the form's words: "blogSlug must…" reads "Slug must…." */
function inFormWords(field: TextField, message: string): string {
  return asSentence(message.startsWith(`${field} `) ? FIELD_LABELS[field] + message.slice(field.length) : message);
}

/** A field's problem by the API's own rule and message, or undefined. An empty slug is derived on create. */
function fieldError(field: TextField, value: string, isNew: boolean): string | undefined {
  if (field === "blogSlug" && value === "" && isNew) return undefined;
  const result = FIELD_RULES[field].safeParse(value);
  const message = result.success ? undefined : result.error.issues[0]?.message;
  return message && inFormWords(field, message);
}

function validate(values: Values, isNew: boolean): Errors {
  const errors: Errors = {};
  for (const field of TEXT_FIELDS) {
    const error = fieldError(field, values[field], isNew);
    if (error) errors[field] = error;
  }
  return errors;
}

/** The field a server-side refusal is about, with the server's words. */
function serverErrors(error: unknown): Errors {
  const errors = fieldErrors(error, [...TEXT_FIELDS, ...OTHER_FIELDS]);
  const field = TEXT_FIELDS.find((f) => errors[f] !== undefined);
  return field ? { [field]: inFormWords(field, errors[field]!) } : errors;
}

/** Whether the form holds changes not saved yet. */
function differs(values: Values, saved: Values): boolean {
  return (Object.keys(EMPTY) as (keyof Values)[]).some((field) => JSON.stringify(values[field]) !== JSON.stringify(saved[field]));
}

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
  const [tab, setTab] = useState<"write" | "preview">("write");
  const [confirmOpen, setConfirmOpen] = useState(false);
  const [conflict, setConflict] = useState(false);
  // Bumped to move the focus to the first invalid field once the errors have rendered.
  const [focusRequest, setFocusRequest] = useState(0);
  const contentRef = useRef<HTMLTextAreaElement>(null);
  // An image uploaded into the content goes where the content's selection was when its upload
  // started, once the owner has given its alt text; then the caret follows it.
  const insertAt = useRef({ start: 0, end: 0 });
  const caretAfterInsert = useRef<number | null>(null);
  const [uploadedImage, setUploadedImage] = useState<ImageView | null>(null);
  const [draggingFile, setDraggingFile] = useState(false);
  const contentUpload = useImageUpload(setUploadedImage);

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
    if (found.content) setTab("write");
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

  const uploadIntoContent = (file: File) => {
    const field = contentRef.current;
    const selection = field ? { start: field.selectionStart, end: field.selectionEnd } : { start: values.content.length, end: values.content.length };
    if (contentUpload.start(file)) insertAt.current = selection;
  };

  const insertImage = (image: ImageView, alt: string) => {
    const markdown = imageMarkdown(image, alt);
    const content = values.content;
    // The content may have shrunk meanwhile.
    const start = Math.min(insertAt.current.start, content.length);
    const end = Math.min(Math.max(insertAt.current.end, start), content.length);
    set("content", content.slice(0, start) + markdown + content.slice(end));
    caretAfterInsert.current = start + markdown.length;
    setUploadedImage(null);
  };

  /** Back in the content after the alt text dialog: the caret after the image inserted, else where the upload started. */
  const returnToContent = (event: Event) => {
    const field = contentRef.current;
    if (!field) return;
    event.preventDefault();
    const caret = caretAfterInsert.current ?? insertAt.current.end;
    caretAfterInsert.current = null;
    field.focus();
    field.setSelectionRange(caret, caret);
  };

  const publicPath = saved ? `/${handle}/${saved.blogSlug}` : null;
  const count = (field: TextField, max: number) => `${values[field].length.toLocaleString("en")} / ${max.toLocaleString("en")}`;

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

        <Card>
          <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
            <CardTitle>Content</CardTitle>
            <div className="flex flex-wrap items-center gap-3">
              <ChooseImageButton upload={contentUpload} label="Upload image" />
              <div role="group" aria-label="Content view" className="inline-flex rounded-md border border-slate-300 p-0.5">
                {(["write", "preview"] as const).map((t) => (
                  <button
                    key={t}
                    type="button"
                    aria-pressed={tab === t}
                    onClick={() => setTab(t)}
                    className={cn(
                      "rounded px-3 py-1 text-sm font-medium capitalize focus-visible:outline-2 focus-visible:outline-indigo-600",
                      tab === t ? "bg-slate-900 text-white" : "text-slate-600 hover:text-slate-900",
                    )}
                  >
                    {t}
                  </button>
                ))}
              </div>
            </div>
          </div>
          <UploadStatus upload={contentUpload} />
          {tab === "write" ? (
            <Field
              label={<span className="sr-only">Content (Markdown)</span>}
              error={errors.content}
              hint={`Markdown; paste or drop an image to upload it. ${count("content", 500_000)}`}
            >
              {(props) => (
                <Textarea
                  {...props}
                  ref={contentRef}
                  rows={16}
                  value={values.content}
                  onChange={(e) => set("content", e.target.value)}
                  onPaste={(e) => {
                    const image = Array.from(e.clipboardData.files).find((file) => file.type.startsWith("image/"));
                    if (!image) return;
                    e.preventDefault();
                    uploadIntoContent(image);
                  }}
                  onDragOver={(e) => {
                    if (!e.dataTransfer.types.includes("Files")) return;
                    e.preventDefault();
                    setDraggingFile(true);
                  }}
                  onDragLeave={() => setDraggingFile(false)}
                  onDrop={(e) => {
                    const file = e.dataTransfer.files[0];
                    if (!file) return;
                    e.preventDefault();
                    setDraggingFile(false);
                    uploadIntoContent(file);
                  }}
                  className={cn("min-h-80 font-mono", draggingFile && "outline-2 outline-offset-2 outline-indigo-600")}
                />
              )}
            </Field>
          ) : (
            <div data-testid="markdown-preview" className="min-h-80 rounded-md border border-slate-200 p-4">
              {values.content.trim() ? <Markdown>{values.content}</Markdown> : <p className="text-sm text-slate-500">Nothing to preview yet.</p>}
            </div>
          )}
        </Card>
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

        <Card className="space-y-4">
          <CardTitle>Visibility</CardTitle>
          <div className="flex items-start justify-between gap-3">
            <div>
              <p className="text-sm font-medium text-slate-800">Public</p>
              <p className="text-xs text-slate-500">Anyone can read it at its public address.</p>
            </div>
            <Switch label="Public" checked={values.isPublic} onCheckedChange={(v) => set("isPublic", v)} />
          </div>
          {!values.isPublic && (
            <div className="space-y-1">
              <Field
                label="Schedule"
                error={errors.publishAt}
                hint="Publish automatically at this time (your time zone); saved with the blog."
              >
                {(props) => (
                  <Input
                    {...props}
                    type="datetime-local"
                    value={values.publishAt}
                    onChange={(e) => {
                      set("publishAt", e.target.value);
                      setErrors((er) => ({ ...er, publishAt: undefined }));
                    }}
                  />
                )}
              </Field>
              {saved?.publishAt && values.publishAt === savedValues.publishAt && (
                <p className="text-xs text-slate-600">
                  Scheduled for <LocalTime iso={saved.publishAt} />.
                </p>
              )}
              {values.publishAt && (
                <Button size="sm" variant="secondary" onClick={() => set("publishAt", "")}>
                  Clear schedule
                </Button>
              )}
            </div>
          )}
          <div className="flex items-start justify-between gap-3">
            <div>
              <p className="text-sm font-medium text-slate-800">Allow API access</p>
              <p className="text-xs text-slate-500">Your API keys can read, change and delete it.</p>
            </div>
            <Switch label="Allow API access" checked={values.allowApiAccess} onCheckedChange={(v) => set("allowApiAccess", v)} />
          </div>
          {publicPath && saved?.isPublic && (
            // A plain link: the public site is static HTML outside Next's router (docs/public-blog.md).
            <a href={publicPath} className="block truncate text-sm font-medium text-indigo-700 underline">
              View public page {publicPath}
            </a>
          )}
        </Card>

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
          <AltTextDialog
            key={uploadedImage?.id}
            image={uploadedImage}
            onInsert={(alt) => uploadedImage && insertImage(uploadedImage, alt)}
            onCancel={() => setUploadedImage(null)}
            onCloseAutoFocus={returnToContent}
          />
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
