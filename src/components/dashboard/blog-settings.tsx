"use client";

import { useQuery } from "@tanstack/react-query";
import { Field, Input, Textarea } from "~/components/ui/input";
import { Switch } from "~/components/ui/switch";
import type { BlogView } from "~/server/blogs/blog-view";
import { api } from "~/trpc/react";
import { trpc } from "~/trpc/query-keys";
import { characterCount, type Errors, type Values } from "./blog-form-values";
import { AuthorPicker } from "./author-picker";
import { CoverImagePicker } from "./cover-image-picker";
import { TagInput } from "./tag-input";

/** The settings a blog's editor keeps beside the writing: address, description, tags, cover, search engines, API access. */
export const SETTINGS_FIELDS = ["blogSlug", "description", "tags", "authors", "coverImage", "seoTitle", "seoDescription"] as const;

/**
 * The blog's settings, in the editor's side panel (desktop) or its sheet (phone). When a blog that
 * has been public gets another slug, the owner is told its old address will redirect.
 */
export function BlogSettings({
  values,
  errors,
  onChange,
  onErrorsChange,
  saved,
  handle,
}: {
  values: Values;
  errors: Errors;
  onChange: <K extends keyof Values>(field: K, value: Values[K]) => void;
  onErrorsChange: (change: Errors) => void;
  saved: BlogView | undefined;
  handle: string;
}) {
  const knownTags = useQuery({ queryKey: trpc.tags.list.queryKey(), queryFn: async () => (await api.tags.list.query({})).data.tags });
  const count = (field: "description" | "seoTitle" | "seoDescription", max: number) => characterCount(values[field], max);
  const slugMoves = saved?.publishedAt && values.blogSlug && values.blogSlug !== saved.blogSlug;
  return (
    <div className="space-y-4">
      <div>
        <Field
          label="Slug"
          error={errors.blogSlug}
          hint={saved ? "Lowercase letters, digits and hyphens." : "Lowercase letters, digits and hyphens. Leave empty to derive it from the title."}
        >
          {(props) => (
            <Input
              {...props}
              value={values.blogSlug}
              onChange={(e) => onChange("blogSlug", e.target.value)}
              autoCapitalize="none"
              spellCheck={false}
              className="font-mono"
            />
          )}
        </Field>
        {slugMoves && (
          <p role="note" className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-xs text-amber-950">
            The old address <span className="font-mono break-all">/{handle}/{saved.blogSlug}</span> will redirect to the new one.
          </p>
        )}
      </div>
      <Field label="Description" error={errors.description} hint={count("description", 1000)}>
        {(props) => <Textarea {...props} rows={3} value={values.description} onChange={(e) => onChange("description", e.target.value)} />}
      </Field>
      <TagInput
        tags={values.tags}
        onChange={(tags) => {
          onChange("tags", tags);
          onErrorsChange({ tags: undefined });
        }}
        suggestions={(knownTags.data ?? []).map((t) => t.name)}
        error={errors.tags}
      />
      <AuthorPicker
        authors={values.authors}
        onChange={(authors) => {
          onChange("authors", authors);
          onErrorsChange({ authors: undefined });
        }}
        error={errors.authors}
      />
      <section aria-labelledby="cover-image-heading" className="space-y-2">
        <h2 id="cover-image-heading" className="text-sm font-medium text-slate-800">
          Cover image
        </h2>
        <CoverImagePicker
          imageId={values.coverImage}
          onChange={(coverImage) => {
            onChange("coverImage", coverImage);
            onErrorsChange({ coverImage: undefined });
          }}
        />
        {errors.coverImage && (
          <p role="alert" className="text-xs text-red-600">
            {errors.coverImage}
          </p>
        )}
      </section>
      <section aria-labelledby="seo-heading" className="space-y-2">
        <h2 id="seo-heading" className="text-sm font-semibold text-slate-900">
          Search engines
        </h2>
        <Field label="SEO title" error={errors.seoTitle} hint={`Defaults to the title. ${count("seoTitle", 200)}`}>
          {(props) => <Input {...props} value={values.seoTitle} onChange={(e) => onChange("seoTitle", e.target.value)} />}
        </Field>
        <Field label="SEO description" error={errors.seoDescription} hint={`Defaults to the description. ${count("seoDescription", 500)}`}>
          {(props) => <Textarea {...props} rows={3} value={values.seoDescription} onChange={(e) => onChange("seoDescription", e.target.value)} />}
        </Field>
      </section>
      <div className="flex items-start justify-between gap-3">
        <div>
          <p className="text-sm font-medium text-slate-800">Allow API access</p>
          <p className="text-xs text-slate-500">Your API keys can read, change and delete it.</p>
        </div>
        <Switch label="Allow API access" checked={values.allowApiAccess} onCheckedChange={(v) => onChange("allowApiAccess", v)} />
      </div>
    </div>
  );
}
