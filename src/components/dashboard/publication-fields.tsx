"use client";

import { useId, useSyncExternalStore } from "react";
import { Button } from "~/components/ui/button";
import { Field, Input } from "~/components/ui/input";
import { AA_TEXT_CONTRAST, contrastRatio } from "~/shared/color-contrast";
import { ACCENT_COLOR_PATTERN, canonicalLanguage, PUBLICATION_LIMITS } from "~/shared/publication";
import { CoverImagePicker } from "./cover-image-picker";
import { newRowKey, type PublicationFormValues } from "./publication-form-values";

/** The Publication page's fields that are more than an input (./publication-settings.tsx). */

/** The public pages' backgrounds (src/server/public-site/reader-style.ts), light and dark. */
const READER_BACKGROUNDS = { light: "#ffffff", dark: "#0b1120" } as const;
/** Suggested in the language field, besides the browser's own languages. */
const COMMON_LANGUAGES = ["en", "en-US", "en-GB", "fr", "de", "es", "it", "pt-BR", "nl", "sv", "pl", "ja", "ko", "zh-Hans", "zh-Hant"];

const SELECT = "h-10 w-full rounded-md border border-slate-300 bg-white px-2 text-sm text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600";

export function ImageField({ label, noun, purpose, value, error, onChange }: { label: string; noun: string; purpose: string; value: string | null; error?: string; onChange: (id: string | null) => void }) {
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
export function AccentColorField({ value, error, onChange }: { value: string; error?: string; onChange: (value: string) => void }) {
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

export function LanguageField({ value, error, onChange }: { value: string; error?: string; onChange: (value: string) => void }) {
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

export function TimeZoneField({ value, error, onChange }: { value: string; error?: string; onChange: (value: string) => void }) {
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

export function NavigationRows({ rows, errors, onChange }: { rows: PublicationFormValues["navigation"]; errors: Record<string, string>; onChange: (rows: PublicationFormValues["navigation"]) => void }) {
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

export function SocialLinkRows({ rows, errors, onChange }: { rows: PublicationFormValues["socialLinks"]; errors: Record<string, string>; onChange: (rows: PublicationFormValues["socialLinks"]) => void }) {
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
