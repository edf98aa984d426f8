import "server-only";
import { markdownToHtml } from "~/lib/markdown";
import type { DateStyle } from "~/lib/format";
import type { ImageReference } from "~/shared/images";
import type { Publication } from "~/shared/publication";
import type { SqlPool } from "../db";
import { readPublication } from "../publication/publication";
import { accentStyle, type AccentStyle } from "./accent";

/**
 * A publication as its public pages show it (docs/publication.md): its settings, its logo and icon
 * as images, its footer rendered, its accent as a stylesheet, and its home, the one base every
 * link of its pages is built from (`${origin}/${handle}` here; a custom domain's `https://domain`).
 */
export interface PublicationView {
  /** The app's origin (or the custom domain's): our images' URLs are under it. */
  origin: string;
  /** Absolute, no trailing slash. */
  home: string;
  title: string;
  description: string;
  language: string;
  timezone: string;
  navigation: Publication["navigation"];
  socialLinks: string[];
  /** The footer's Markdown as sanitized HTML (src/lib/markdown.ts); "" for none. */
  footerHtml: string;
  logo: ImageReference | null;
  icon: ImageReference | null;
  /** Null: the reader stylesheet's own link colours. */
  accent: AccentStyle | null;
}

/** The publication's logo and icon: images of the account (a deleted one is null). */
async function readImages(pool: SqlPool, ids: string[]): Promise<Map<string, ImageReference>> {
  if (ids.length === 0) return new Map();
  const { rows } = await pool.query<ImageReference>(
    `SELECT "id", "width", "height", "format", "variantsPending" FROM "image" WHERE "id" = ANY($1::text[])`,
    [ids],
  );
  return new Map(rows.map((row) => [row.id, row]));
}

/** The view of `owner`'s publication at `home`, read on `pool` (with the content it is shown with). */
export async function readPublicationView(pool: SqlPool, owner: { id: string; name: string }, origin: string, home: string): Promise<PublicationView> {
  return publicationView(pool, await readPublication(pool, owner), origin, home);
}

/** The view of `publication` (saved, or a draft the dashboard previews) at `home`, its images read on `pool`. */
export async function publicationView(pool: SqlPool, publication: Publication, origin: string, home: string): Promise<PublicationView> {
  const images = await readImages(pool, [publication.logo, publication.icon].filter((id) => id !== null));
  return {
    origin,
    home,
    title: publication.title,
    description: publication.description,
    language: publication.language,
    timezone: publication.timezone,
    navigation: publication.navigation,
    socialLinks: publication.socialLinks,
    footerHtml: publication.footer.trim() === "" ? "" : markdownToHtml(publication.footer, { origin }),
    logo: images.get(publication.logo ?? "") ?? null,
    icon: images.get(publication.icon ?? "") ?? null,
    accent: publication.accentColor ? accentStyle(publication.accentColor) : null,
  };
}

/** How the publication's pages write dates: in its time zone and language. */
export const dateStyle = (site: PublicationView): DateStyle => ({ timeZone: site.timezone, locale: site.language });
