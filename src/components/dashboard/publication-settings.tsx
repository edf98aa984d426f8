"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useMemo, useState, type FormEvent } from "react";
import { Button } from "~/components/ui/button";
import { Card, CardTitle, Skeleton } from "~/components/ui/card";
import { Field, Input, Textarea } from "~/components/ui/input";
import { Toast, type ToastMessage } from "~/components/ui/toast";
import { PUBLICATION_LIMITS, type Publication } from "~/shared/publication";
import { TRPCClientError } from "@trpc/client";
import { api, errorMessage } from "~/trpc/react";
import { trpc } from "~/trpc/query-keys";
import { LoadError } from "./load-error";
import { PublicationDomain } from "./publication-domain";
import { formProblems, sameUpdate, toFormValues, toUpdate, type PublicationFormValues } from "./publication-form-values";
import { AccentColorField, ImageField, LanguageField, NavigationRows, SocialLinkRows, TimeZoneField } from "./publication-fields";
import { PublicationPreview } from "./publication-preview";
import { useUnsavedChangesGuard } from "./unsaved-changes";


const publicationQuery = {
  queryKey: trpc.publication.get.queryKey({}),
  queryFn: async () => (await api.publication.get.query({})).data.publication,
};

/**
 * The Publication page (docs/dashboard.md): the settings every public page presents the account
 * with, a live preview of the home beside them from 1280 px (below, on demand, on narrower
 * screens), and the custom domain's own section (./publication-domain.tsx), saved on its own.
 */
export function PublicationSettings({ ownerName, handle }: { ownerName: string; handle: string }) {
  const publication = useQuery(publicationQuery);
  if (publication.error) return <LoadError what="your publication" error={publication.error} onRetry={() => void publication.refetch()} retrying={publication.isFetching} />;
  if (!publication.data) return <Skeleton className="h-96 w-full" />;
  return <PublicationEditor saved={publication.data} ownerName={ownerName} handle={handle} />;
}

function PublicationEditor({ saved, ownerName, handle }: { saved: Publication; ownerName: string; handle: string }) {
  const queryClient = useQueryClient();
  const initial = useMemo(() => toFormValues(saved, ownerName), [saved, ownerName]);
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [toast, setToast] = useState<ToastMessage | null>(null);
  const dirty = !sameUpdate(values, initial);
  useUnsavedChangesGuard(dirty);

  const set = <F extends keyof PublicationFormValues>(field: F, value: PublicationFormValues[F]) => {
    setValues((current) => ({ ...current, [field]: value }));
    // A changed field's error is about what it held.
    setErrors((current) => Object.fromEntries(Object.entries(current).filter(([path]) => path !== field && !path.startsWith(`${field}.`))));
  };

  const save = useMutation({
    mutationFn: () => api.publication.update.mutate(toUpdate(values)),
    onSuccess: (publication) => {
      queryClient.setQueryData(publicationQuery.queryKey, publication);
      setValues(toFormValues(publication, ownerName));
      setErrors({});
      setToast({ id: Date.now(), text: "Publication saved: your public pages show it now." });
    },
    onError: (error) => {
      const field = error instanceof TRPCClientError ? (error.data as { field?: string } | undefined)?.field : undefined;
      setErrors({ [field || "form"]: errorMessage(error) });
    },
  });

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const problems = formProblems(values);
    setErrors(problems);
    if (Object.keys(problems).length > 0) {
      // The first field in trouble takes the focus, its message read with it.
      requestAnimationFrame(() => document.querySelector<HTMLElement>("[aria-invalid=true]")?.focus());
      return;
    }
    save.mutate();
  }

  const problemCount = Object.keys(errors).filter((path) => path !== "form").length;

  return (
    <div className="grid gap-6 xl:grid-cols-[minmax(0,1fr)_minmax(0,1fr)] xl:items-start">
      <div className="min-w-0 space-y-6">
        <form onSubmit={onSubmit} noValidate aria-label="Publication settings" className="space-y-6">
          <Card className="space-y-1">
            <CardTitle>Identity</CardTitle>
            <div className="mt-4 space-y-1">
              <Field label="Title" hint={`In every page's header and title, and naming your feeds. Empty: your name, ${ownerName}.`} error={errors.title}>
                {(props) => <Input {...props} value={values.title} placeholder={ownerName} maxLength={PUBLICATION_LIMITS.title} onChange={(e) => set("title", e.target.value)} />}
              </Field>
              <Field label="Description" hint="Under the title on your home, and your feeds' description." error={errors.description}>
                {(props) => (
                  <Textarea {...props} rows={2} value={values.description} maxLength={PUBLICATION_LIMITS.description} onChange={(e) => set("description", e.target.value)} />
                )}
              </Field>
              <div className="grid gap-4 sm:grid-cols-2">
                <ImageField label="Logo" noun="logo" purpose="it shows in the header of every public page." value={values.logo} error={errors.logo} onChange={(id) => set("logo", id)} />
                <ImageField label="Icon" noun="icon" purpose="browsers show it in tabs and bookmarks (a square image works best)." value={values.icon} error={errors.icon} onChange={(id) => set("icon", id)} />
              </div>
            </div>
          </Card>
          <Card>
            <CardTitle>Look and locale</CardTitle>
            <div className="mt-4 space-y-1">
              <AccentColorField value={values.accentColor} error={errors.accentColor} onChange={(value) => set("accentColor", value)} />
              <LanguageField value={values.language} error={errors.language} onChange={(value) => set("language", value)} />
              <TimeZoneField value={values.timezone} error={errors.timezone} onChange={(value) => set("timezone", value)} />
            </div>
          </Card>
          <Card>
            <CardTitle>Navigation</CardTitle>
            <p className="mt-1 text-sm text-slate-600">
              Links in every page&apos;s header, up to {PUBLICATION_LIMITS.navigation}: a web address, or a path of your publication such as /tags/news.
            </p>
            <NavigationRows rows={values.navigation} errors={errors} onChange={(rows) => set("navigation", rows)} />
          </Card>
          <Card>
            <CardTitle>Social links</CardTitle>
            <p className="mt-1 text-sm text-slate-600">Your profiles elsewhere, in every page&apos;s footer, up to {PUBLICATION_LIMITS.socialLinks}.</p>
            <SocialLinkRows rows={values.socialLinks} errors={errors} onChange={(rows) => set("socialLinks", rows)} />
          </Card>
          <Card>
            <CardTitle>Footer</CardTitle>
            <div className="mt-4">
              <Field
                label="Footer text"
                hint={
                  <>
                    Markdown, in every page&apos;s footer.{" "}
                    <span aria-live="polite">
                      {values.footer.length.toLocaleString("en")} / {PUBLICATION_LIMITS.footer.toLocaleString("en")} characters
                    </span>
                  </>
                }
                error={errors.footer}
              >
                {(props) => (
                  <Textarea {...props} rows={4} className="font-mono" value={values.footer} maxLength={PUBLICATION_LIMITS.footer} onChange={(e) => set("footer", e.target.value)} />
                )}
              </Field>
            </div>
          </Card>
          <div className="sticky bottom-0 z-10 -mx-4 flex flex-wrap items-center justify-end gap-3 border-t border-slate-200 bg-white/95 px-4 py-3 backdrop-blur sm:mx-0 sm:rounded-lg sm:border">
            <p role="status" className="mr-auto text-sm text-slate-600">
              {problemCount > 0 ? `${problemCount === 1 ? "1 field needs" : `${problemCount} fields need`} a change before saving.` : dirty ? "Unsaved changes" : "All changes saved"}
            </p>
            {errors.form && (
              <p role="alert" className="w-full text-sm text-red-600">
                {errors.form}
              </p>
            )}
            <Button
              variant="ghost"
              disabled={!dirty || save.isPending}
              onClick={() => {
                setValues(initial);
                setErrors({});
              }}
            >
              Discard
            </Button>
            <Button type="submit" loading={save.isPending} disabled={!dirty}>
              Save publication
            </Button>
          </div>
        </form>
        {/* Saved on its own, not with the form above. */}
        <PublicationDomain publication={saved} />
      </div>
      <PublicationPreview values={values} handle={handle} />
      <Toast message={toast} onDismiss={() => setToast(null)} />
    </div>
  );
}
