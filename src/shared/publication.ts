import { z } from "zod";

/**
 * A publication's settings (docs/publication.md): the one definition of their rules, shared by
 * the API's document, the dashboard's form and the server. Each message names the field and its
 * rule, as the error `details` show it.
 */

export const PUBLICATION_LIMITS = {
  title: 200,
  description: 500,
  navigation: 10,
  navigationLabel: 40,
  url: 2_048,
  socialLinks: 10,
  footer: 1_000,
  domain: 253,
} as const;

export const ACCENT_COLOR_PATTERN = /^#[0-9a-f]{6}$/;

/** The canonical form of a BCP 47 language tag ("EN-gb" is "en-GB"), or null when it is none. */
export function canonicalLanguage(value: string): string | null {
  try {
    return Intl.getCanonicalLocales(value)[0] ?? null;
  } catch {
    return null;
  }
}

/** The canonical name of an IANA time zone ("utc" is "UTC"), or null when it is none. */
export function canonicalTimeZone(value: string): string | null {
  if (value === "" || value.length > 64) return null;
  try {
    return new Intl.DateTimeFormat("en", { timeZone: value }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

const isWebUrl = (value: string) => URL.canParse(value) && ["https:", "http:"].includes(new URL(value).protocol);

/**
 * A navigation link's target: a web address, or a path of the publication ("/about", "/tags/news"),
 * which the public pages resolve under the publication's home (its handle's or its domain's).
 */
export function isNavigationTarget(value: string): boolean {
  return isWebUrl(value) || (/^\/(?!\/)/.test(value) && URL.canParse(value, "https://x"));
}

/**
 * A custom domain as a publication keeps it (lowercase, no trailing dot), or null when it is no
 * public host name: at least two labels of letters, digits and inner hyphens, the last not numeric
 * (so no IP address), no port, no wildcard.
 */
export function canonicalDomain(value: string): string | null {
  const domain = value.trim().toLowerCase().replace(/\.$/, "");
  if (domain.length === 0 || domain.length > PUBLICATION_LIMITS.domain) return null;
  const labels = domain.split(".");
  if (labels.length < 2 || !labels.every((label) => /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/.test(label))) return null;
  return /^[0-9]+$/.test(labels.at(-1)!) ? null : domain;
}

const text = (field: string, max: number) =>
  z.string({ error: `${field} must be a string` }).max(max, { error: `${field} must be at most ${max.toLocaleString("en")} characters` });

/** Each writable field's rule; absent fields are left alone, null resets a nullable one to its default. */
export const publicationFieldSchemas = {
  title: z
    .string({ error: "title must be a string or null" })
    .trim()
    .min(1, { error: `title must be 1 to ${PUBLICATION_LIMITS.title} characters, or null for the owner's name` })
    .max(PUBLICATION_LIMITS.title, { error: `title must be 1 to ${PUBLICATION_LIMITS.title} characters, or null for the owner's name` })
    .nullable(),
  description: text("description", PUBLICATION_LIMITS.description),
  /** An image id; that it is the account's is checked where the publication is written. */
  logo: z.string({ error: "logo must be an image id (a string) or null" }).nullable(),
  icon: z.string({ error: "icon must be an image id (a string) or null" }).nullable(),
  accentColor: z
    .string({ error: "accentColor must be a string or null" })
    .transform((value) => value.toLowerCase())
    .refine((value) => ACCENT_COLOR_PATTERN.test(value), { error: "accentColor must be a colour as #rrggbb (e.g. #1f6feb), or null" })
    .nullable(),
  language: z
    .string({ error: "language must be a string" })
    .transform((value, context) => {
      const language = canonicalLanguage(value);
      if (language === null) context.addIssue({ code: "custom", message: "language must be a BCP 47 language tag (e.g. en, fr-CA)" });
      return language ?? value;
    }),
  timezone: z
    .string({ error: "timezone must be a string" })
    .transform((value, context) => {
      const timezone = canonicalTimeZone(value);
      if (timezone === null) context.addIssue({ code: "custom", message: "timezone must be an IANA time zone (e.g. Europe/Paris, UTC)" });
      return timezone ?? value;
    }),
  navigation: z
    .array(
      z.object({
        label: z
          .string({ error: "navigation labels must be strings" })
          .trim()
          .min(1, { error: `navigation labels must be 1 to ${PUBLICATION_LIMITS.navigationLabel} characters` })
          .max(PUBLICATION_LIMITS.navigationLabel, { error: `navigation labels must be 1 to ${PUBLICATION_LIMITS.navigationLabel} characters` }),
        url: z
          .string({ error: "navigation URLs must be strings" })
          .trim()
          .max(PUBLICATION_LIMITS.url, { error: `navigation URLs must be at most ${PUBLICATION_LIMITS.url} characters` })
          .refine(isNavigationTarget, { error: "navigation URLs must be http(s) addresses or paths of the publication starting with /" }),
      }),
      { error: "navigation must be an array of {label, url}" },
    )
    .max(PUBLICATION_LIMITS.navigation, { error: `navigation holds at most ${PUBLICATION_LIMITS.navigation} links` }),
  socialLinks: z
    .array(
      z
        .string({ error: "socialLinks must be URLs (strings)" })
        .trim()
        .max(PUBLICATION_LIMITS.url, { error: `socialLinks must be at most ${PUBLICATION_LIMITS.url} characters each` })
        .refine(isWebUrl, { error: "socialLinks must be http(s) addresses" }),
      { error: "socialLinks must be an array of URLs" },
    )
    .max(PUBLICATION_LIMITS.socialLinks, { error: `socialLinks holds at most ${PUBLICATION_LIMITS.socialLinks} links` }),
  footer: text("footer", PUBLICATION_LIMITS.footer),
  domain: z
    .string({ error: "domain must be a string or null" })
    .transform((value, context) => {
      const domain = canonicalDomain(value);
      if (domain === null) context.addIssue({ code: "custom", message: "domain must be a host name such as blog.example.com (no scheme, port or path), or null" });
      return domain ?? value;
    })
    .nullable(),
};

/** What `publication.update` takes: any of the fields. */
export const publicationUpdateSchema = z.object(publicationFieldSchemas).partial().strict();
export type PublicationUpdate = z.input<typeof publicationUpdateSchema>;

const NAVIGATION_LINK = z.object({
  label: z.string().meta({ description: "The link's text" }),
  url: z.string().meta({ description: "A web address, or a path of the publication (resolved under its home, e.g. /tags/news)" }),
});

/** The publication as the API and the dashboard show it. */
export const publicationSchema = z
  .object({
    title: z.string().meta({ description: "The publication's name (default: the owner's name)" }),
    description: z.string().meta({ description: "What it is about: under the title on its home, and its feeds' description" }),
    logo: z.string().nullable().meta({ description: "Image id of the logo in the header, or null" }),
    icon: z.string().nullable().meta({ description: "Image id of the icon (favicon), or null" }),
    accentColor: z.string().nullable().meta({ description: "Accent colour #rrggbb of links and buttons, or null for the default" }),
    language: z.string().meta({ description: "BCP 47 language of its pages and feeds (default en)" }),
    timezone: z.string().meta({ description: "IANA time zone of the dates its pages show (default UTC)" }),
    navigation: z.array(NAVIGATION_LINK).meta({ description: `Header links, at most ${PUBLICATION_LIMITS.navigation}` }),
    socialLinks: z.array(z.string()).meta({ description: `Profile links in the footer, at most ${PUBLICATION_LIMITS.socialLinks}` }),
    footer: z.string().meta({ description: `Markdown shown in every page's footer, at most ${PUBLICATION_LIMITS.footer.toLocaleString("en")} characters` }),
    domain: z.string().nullable().meta({ description: "Custom domain the publication is served at once verified, or null" }),
    domainVerified: z.boolean().meta({ description: "Whether the custom domain is verified (then served)" }),
    updatedAt: z.iso.datetime().nullable().meta({ description: "When the settings last changed; null while they are the defaults" }),
  })
  .meta({ id: "Publication", description: "How the account's public pages present it (docs/publication.md)" });
export type Publication = z.infer<typeof publicationSchema>;
export type NavigationLink = Publication["navigation"][number];

/**
 * Where a navigation link leads on the public pages: a path of the publication ("/about") under
 * its home (`https://app/{handle}`, or `https://domain` on its custom domain), "/" the home itself
 * ("/?page=2" its second page); a web address as it is.
 */
export function publicationHref(home: string, url: string): string {
  if (!url.startsWith("/")) return url;
  const base = home.replace(/\/+$/, "");
  // The home's own query or fragment ("/?page=2", "/#top") follows the home, not a slash after it.
  return /^\/([?#]|$)/.test(url) ? base + url.slice(1) || "/" : base + url;
}

/** Social networks' names by their host (without "www."), for their links' accessible names; others are named by their host. */
const SOCIAL_NETWORKS: Record<string, string> = {
  "mastodon.social": "Mastodon",
  "mastodon.online": "Mastodon",
  "github.com": "GitHub",
  "gitlab.com": "GitLab",
  "x.com": "X",
  "twitter.com": "X",
  "bsky.app": "Bluesky",
  "threads.net": "Threads",
  "instagram.com": "Instagram",
  "facebook.com": "Facebook",
  "linkedin.com": "LinkedIn",
  "youtube.com": "YouTube",
  "tiktok.com": "TikTok",
  "twitch.tv": "Twitch",
  "reddit.com": "Reddit",
  "pinterest.com": "Pinterest",
  "medium.com": "Medium",
  "substack.com": "Substack",
  "discord.gg": "Discord",
  "discord.com": "Discord",
  "t.me": "Telegram",
  "dribbble.com": "Dribbble",
  "behance.net": "Behance",
};

/** A social link's name as the footer shows it: the network's ("Mastodon", "GitHub", "X"), else the link's host. */
export function socialLinkName(url: string): string {
  const host = new URL(url).hostname.replace(/^www\./, "");
  const network = SOCIAL_NETWORKS[host] ?? Object.entries(SOCIAL_NETWORKS).find(([domain]) => host.endsWith(`.${domain}`))?.[1];
  if (network) return network;
  // Mastodon servers are many; their profile paths are /@name.
  return /^\/@[^/]+\/?$/.test(new URL(url).pathname) ? "Mastodon" : host;
}
