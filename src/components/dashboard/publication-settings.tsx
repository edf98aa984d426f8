"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useMemo, useState, useSyncExternalStore, type FormEvent } from "react";
import { Button } from "~/components/ui/button";
import { Card, CardTitle, Skeleton } from "~/components/ui/card";
import { Field, Input, Textarea } from "~/components/ui/input";
import { Toast, type ToastMessage } from "~/components/ui/toast";
import { cn } from "~/lib/cn";
import { AA_TEXT_CONTRAST, contrastRatio } from "~/shared/color-contrast";
import { ACCENT_COLOR_PATTERN, canonicalLanguage, PUBLICATION_LIMITS, type Publication } from "~/shared/publication";
import { TRPCClientError } from "@trpc/client";
import { api, errorMessage } from "~/trpc/react";
import { trpc } from "~/trpc/query-keys";
import { CoverImagePicker } from "./cover-image-picker";
import { LoadError } from "./load-error";
import { PublicationDomain } from "./publication-domain";
import { formProblems, newRowKey, sameUpdate, toFormValues, toUpdate, validDraft, type PublicationFormValues } from "./publication-form-values";
import { useUnsavedChangesGuard } from "./unsaved-changes";

/** How long typing pauses before the preview is made again. */
const PREVIEW_DELAY_MS = 400;
/** The public pages' backgrounds (src/server/public-site/reader-style.ts), light and dark. */
const READER_BACKGROUNDS = { light: "#ffffff", dark: "#0b1120" } as const;
/** Suggested in the language field, besides the browser's own languages. */
const COMMON_LANGUAGES = ["en", "en-US", "en-GB", "fr", "de", "es", "it", "pt-BR", "nl", "sv", "pl", "ja", "ko", "zh-Hans", "zh-Hant"];

const SELECT = "h-10 w-full rounded-md border border-slate-300 bg-white px-2 text-sm text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600";

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

function ImageField({ label, noun, purpose, value, error, onChange }: { label: string; noun: string; purpose: string; value: string | null; error?: string; onChange: (id: string | null) => void }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="space-y-2 pb-4">
      <h3 id={headingId} className="text-sm font-medium text-slate-800">
        {label}
      </h3>
      <CoverImagePicker imageId={value} onChange={onChange} noun={noun} purpose={purpose} />
      {error && (
        <p role="alert" className="text-xs text-red-600">
          {error}
        </p>
      )}
    </section>
  );
}

/** A colour input and its hex text, both the same value; the hint says how readable it is as link text on the pages' backgrounds. */
function AccentColorField({ value, error, onChange }: { value: string; error?: string; onChange: (value: string) => void }) {
  const valid = ACCENT_COLOR_PATTERN.test(value.toLowerCase());
  const ratios = valid ? ([["light", contrastRatio(value, READER_BACKGROUNDS.light)], ["dark", contrastRatio(value, READER_BACKGROUNDS.dark)]] as const) : null;
  const weak = ratios?.filter(([, ratio]) => ratio < AA_TEXT_CONTRAST).map(([scheme]) => scheme) ?? [];
  const hint = ratios ? (
    <>
      Contrast as link text: {ratios.map(([scheme, ratio]) => `${ratio.toFixed(1)}:1 on ${scheme}`).join(", ")}.{" "}
      {weak.length === 0 ? "Readable in both schemes." : `Below ${AA_TEXT_CONTRAST}:1 on ${weak.join(" and ")}: readers may struggle to see links.`}
    </>
  ) : (
    "Links and buttons of your pages, as #rrggbb. Empty: the default indigo."
  );
  return (
    <Field label="Accent colour" hint={hint} error={error}>
      {(props) => (
        <div className="flex gap-2">
          <input
            type="color"
            aria-label="Pick the accent colour"
            value={valid ? value.toLowerCase() : "#4338ca"}
            onChange={(e) => onChange(e.target.value)}
            className="h-10 w-12 shrink-0 cursor-pointer rounded-md border border-slate-300 bg-white p-1 focus-visible:outline-2 focus-visible:outline-indigo-600"
          />
          <Input {...props} value={value} placeholder="#4338ca" spellCheck={false} autoCapitalize="none" className="font-mono" onChange={(e) => onChange(e.target.value)} />
          {value !== "" && (
            <Button variant="ghost" onClick={() => onChange("")}>
              Use default
            </Button>
          )}
        </div>
      )}
    </Field>
  );
}

const noSubscription = () => () => undefined;
/** What only the browser knows (its languages, its time zone), the same value on every call; `onServer` in the server's render. */
const useInBrowser = <T,>(read: () => T, onServer: T): T => useSyncExternalStore(noSubscription, read, () => onServer);
const once = <T,>(make: () => T) => {
  let made: T | undefined;
  return () => (made ??= make());
};
const browserLanguages = once(() => [...new Set([...navigator.languages, ...COMMON_LANGUAGES])]);
const timeZones = once(() => [...new Set(["UTC", ...Intl.supportedValuesOf("timeZone")])].sort());

function LanguageField({ value, error, onChange }: { value: string; error?: string; onChange: (value: string) => void }) {
  const listId = useId();
  const suggestions = useInBrowser(browserLanguages, COMMON_LANGUAGES);
  const canonical = canonicalLanguage(value.trim());
  const name = canonical ? new Intl.DisplayNames(["en"], { type: "language", fallback: "none" }).of(canonical) : undefined;
  return (
    <Field label="Language" hint={name ? `${name}: the language of your pages and feeds, for browsers, screen readers and search engines.` : "A BCP 47 tag such as en, fr-CA or pt-BR."} error={error}>
      {(props) => (
        <>
          <Input {...props} list={listId} value={value} spellCheck={false} autoCapitalize="none" onChange={(e) => onChange(e.target.value)} />
          <datalist id={listId}>
            {suggestions.map((tag) => (
              <option key={tag} value={tag} />
            ))}
          </datalist>
        </>
      )}
    </Field>
  );
}

function TimeZoneField({ value, error, onChange }: { value: string; error?: string; onChange: (value: string) => void }) {
  const browserZone = useInBrowser(() => Intl.DateTimeFormat().resolvedOptions().timeZone, null);
  const zones = useInBrowser(timeZones, [value]);
  const options = zones.includes(value) ? zones : [value, ...zones];
  return (
    <Field
      label="Time zone"
      hint={
        <>
          The dates your pages show are in it.
          {browserZone && browserZone !== value && (
            <>
              {" "}
              <button type="button" className="rounded font-medium text-indigo-700 underline focus-visible:outline-2 focus-visible:outline-indigo-600" onClick={() => onChange(browserZone)}>
                Use {browserZone}
              </button>{" "}
              (this browser&apos;s).
            </>
          )}
        </>
      }
      error={error}
    >
      {(props) => (
        <select id={props.id} aria-describedby={props["aria-describedby"]} aria-invalid={props.invalid || undefined} value={value} onChange={(e) => onChange(e.target.value)} className={SELECT}>
          {options.map((zone) => (
            <option key={zone} value={zone}>
              {zone.replaceAll("_", " ")}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

/** Moves the item at `index` by `step` (±1) in a copy of `rows`. */
function moved<T>(rows: T[], index: number, step: number): T[] {
  const copy = [...rows];
  const [row] = copy.splice(index, 1);
  copy.splice(index + step, 0, row!);
  return copy;
}

/** A row's move and remove buttons, named after the row for screen readers. */
function RowActions({ name, index, count, onMove, onRemove }: { name: string; index: number; count: number; onMove: (step: number) => void; onRemove: () => void }) {
  return (
    <div className="flex shrink-0 gap-1 sm:pt-6">
      <Button variant="ghost" size="sm" aria-label={`Move ${name} up`} disabled={index === 0} onClick={() => onMove(-1)}>
        ↑
      </Button>
      <Button variant="ghost" size="sm" aria-label={`Move ${name} down`} disabled={index === count - 1} onClick={() => onMove(1)}>
        ↓
      </Button>
      <Button variant="ghost" size="sm" aria-label={`Remove ${name}`} onClick={onRemove}>
        Remove
      </Button>
    </div>
  );
}

function NavigationRows({ rows, errors, onChange }: { rows: PublicationFormValues["navigation"]; errors: Record<string, string>; onChange: (rows: PublicationFormValues["navigation"]) => void }) {
  const full = rows.length >= PUBLICATION_LIMITS.navigation;
  return (
    <div className="mt-4 space-y-2">
      {rows.length === 0 && <p className="text-sm text-slate-600">No links yet.</p>}
      <ol className="space-y-2">
        {rows.map((row, index) => {
          const name = `link ${index + 1}${row.label.trim() ? ` (${row.label.trim()})` : ""}`;
          const update = (change: Partial<typeof row>) => onChange(rows.map((r) => (r.key === row.key ? { ...r, ...change } : r)));
          return (
            <li key={row.key} className="flex flex-col gap-x-2 rounded-md border border-slate-200 p-3 sm:flex-row sm:items-start">
              <div className="grid min-w-0 flex-1 gap-x-2 sm:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
                <Field label={`Label ${index + 1}`} error={errors[`navigation.${index}.label`]}>
                  {(props) => <Input {...props} value={row.label} maxLength={PUBLICATION_LIMITS.navigationLabel} onChange={(e) => update({ label: e.target.value })} />}
                </Field>
                <Field label={`Address ${index + 1}`} error={errors[`navigation.${index}.url`]}>
                  {(props) => <Input {...props} value={row.url} placeholder="/about or https://…" spellCheck={false} autoCapitalize="none" onChange={(e) => update({ url: e.target.value })} />}
                </Field>
              </div>
              <RowActions name={name} index={index} count={rows.length} onMove={(step) => onChange(moved(rows, index, step))} onRemove={() => onChange(rows.filter((r) => r.key !== row.key))} />
            </li>
          );
        })}
      </ol>
      {errors.navigation && (
        <p role="alert" className="text-xs text-red-600">
          {errors.navigation}
        </p>
      )}
      <Button variant="secondary" size="sm" disabled={full} onClick={() => onChange([...rows, { key: newRowKey(), label: "", url: "" }])}>
        Add link
      </Button>
      {full && <p className="text-xs text-slate-600">That is the most there can be.</p>}
    </div>
  );
}

function SocialLinkRows({ rows, errors, onChange }: { rows: PublicationFormValues["socialLinks"]; errors: Record<string, string>; onChange: (rows: PublicationFormValues["socialLinks"]) => void }) {
  const full = rows.length >= PUBLICATION_LIMITS.socialLinks;
  return (
    <div className="mt-4 space-y-2">
      {rows.length === 0 && <p className="text-sm text-slate-600">No social links yet.</p>}
      <ol className="space-y-2">
        {rows.map((row, index) => (
          <li key={row.key} className="flex flex-col gap-x-2 sm:flex-row sm:items-start">
            <div className="min-w-0 flex-1">
              <Field label={`Profile ${index + 1}`} error={errors[`socialLinks.${index}`]}>
                {(props) => (
                  <Input
                    {...props}
                    type="url"
                    value={row.url}
                    placeholder="https://…"
                    onChange={(e) => onChange(rows.map((r) => (r.key === row.key ? { ...r, url: e.target.value } : r)))}
                  />
                )}
              </Field>
            </div>
            <RowActions
              name={`profile ${index + 1}`}
              index={index}
              count={rows.length}
              onMove={(step) => onChange(moved(rows, index, step))}
              onRemove={() => onChange(rows.filter((r) => r.key !== row.key))}
            />
          </li>
        ))}
      </ol>
      {errors.socialLinks && (
        <p role="alert" className="text-xs text-red-600">
          {errors.socialLinks}
        </p>
      )}
      <Button variant="secondary" size="sm" disabled={full} onClick={() => onChange([...rows, { key: newRowKey(), url: "" }])}>
        Add social link
      </Button>
    </div>
  );
}

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
function PublicationPreview({ values, handle }: { values: PublicationFormValues; handle: string }) {
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
