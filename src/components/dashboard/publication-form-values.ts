import { publicationFieldSchemas, publicationUpdateSchema, type Publication, type PublicationUpdate } from "~/shared/publication";

/**
 * The Publication page's form (docs/dashboard.md, Publication) as the owner edits it: text as
 * typed, list rows with a key each so reordering keeps the focus on its row. What is sent is made
 * from it by `toUpdate`; the custom domain has its own section and is never part of it.
 */
export interface PublicationFormValues {
  /** Empty: the owner's name. */
  title: string;
  description: string;
  logo: string | null;
  icon: string | null;
  /** Empty: the reader style's own colour. */
  accentColor: string;
  language: string;
  timezone: string;
  navigation: { key: number; label: string; url: string }[];
  socialLinks: { key: number; url: string }[];
  footer: string;
}

let nextRowKey = 1;
export const newRowKey = () => nextRowKey++;

export function toFormValues(publication: Publication, ownerName: string): PublicationFormValues {
  return {
    title: publication.title === ownerName ? "" : publication.title,
    description: publication.description,
    logo: publication.logo,
    icon: publication.icon,
    accentColor: publication.accentColor ?? "",
    language: publication.language,
    timezone: publication.timezone,
    navigation: publication.navigation.map((link) => ({ key: newRowKey(), ...link })),
    socialLinks: publication.socialLinks.map((url) => ({ key: newRowKey(), url })),
    footer: publication.footer,
  };
}

export type PublicationDraft = Omit<PublicationUpdate, "domain">;

/** What `publication.update` is sent: every field but the domain, empty text meaning the default. */
export function toUpdate(values: PublicationFormValues): Required<PublicationDraft> {
  return {
    title: values.title.trim() === "" ? null : values.title,
    description: values.description,
    logo: values.logo,
    icon: values.icon,
    accentColor: values.accentColor.trim() === "" ? null : values.accentColor.trim(),
    language: values.language.trim(),
    timezone: values.timezone,
    navigation: values.navigation.map(({ label, url }) => ({ label, url })),
    socialLinks: values.socialLinks.map(({ url }) => url),
    footer: values.footer,
  };
}

/** Whether two forms would save the same publication. */
export const sameUpdate = (a: PublicationFormValues, b: PublicationFormValues) => JSON.stringify(toUpdate(a)) === JSON.stringify(toUpdate(b));

/** Each problem of the form by its field's path ("accentColor", "navigation.2.url"), with the API's own words. */
export function formProblems(values: PublicationFormValues): Record<string, string> {
  const result = publicationUpdateSchema.safeParse(toUpdate(values));
  const problems: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) problems[issue.path.join(".")] ??= issue.message;
  return problems;
}

/** The fields of the form that are valid as they stand: the preview shows these, and the saved ones for the rest. */
export function validDraft(values: PublicationFormValues): PublicationDraft {
  const update = toUpdate(values);
  const draft: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(update)) {
    const parsed = publicationFieldSchemas[field as keyof PublicationDraft].safeParse(value);
    if (parsed.success) draft[field] = value;
  }
  return draft as PublicationDraft;
}
