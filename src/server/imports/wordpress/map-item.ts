import "server-only";
import { toString as hastToString } from "hast-util-to-string";
import rehypeParse from "rehype-parse";
import { unified } from "unified";
import { BLOG_FIELD_MAX_LENGTHS } from "~/shared/blog-fields";
import type { SourceItem, SourcePost } from "../source";
import { type Attachment, wordPressContentToMarkdown } from "./content";
import type { WxrItem } from "./wxr-stream";

/**
 * One WordPress item as the importer's items (docs/migrating.md, What maps to what): a post becomes
 * a SourcePost; anything else (pages, attachments, menu items, revisions, site design, custom post
 * types, trashed posts) a skipped item with its reason; and each of its comments a skipped comment.
 */

export interface WordPressSite {
  /** What source ids start with after "wordpress:": the blog's address as the export states it. */
  key: string;
  /** The site's name (Yoast's %%sitename%%). */
  title: string;
  attachments: ReadonlyMap<string, Attachment>;
}

/** WordPress's own post types that are not posts, by what the report calls them. */
const SKIPPED_TYPES: Record<string, { what: string; reason: string }> = {
  page: { what: "page", reason: "pages are not imported: only posts become blogs" },
  attachment: { what: "attachment", reason: "media files are not imported as posts: the images a post uses come with it" },
  nav_menu_item: { what: "menu item", reason: "menus are not imported" },
  revision: { what: "revision", reason: "earlier versions are not imported: the post's latest is" },
  wp_block: { what: "reusable block", reason: "reusable blocks are not imported as posts" },
  wp_navigation: { what: "menu item", reason: "menus are not imported" },
  wp_template: { what: "template", reason: "theme templates are site design, not content" },
  wp_template_part: { what: "template", reason: "theme templates are site design, not content" },
  wp_global_styles: { what: "site styles", reason: "theme styles are site design, not content" },
  custom_css: { what: "site styles", reason: "theme styles are site design, not content" },
  wp_font_family: { what: "font", reason: "fonts are site design, not content" },
  wp_font_face: { what: "font", reason: "fonts are site design, not content" },
  customize_changeset: { what: "customizer change", reason: "site settings are not imported" },
  oembed_cache: { what: "embed cache", reason: "WordPress's cache of embeds is not content" },
  user_request: { what: "privacy request", reason: "personal data requests are not imported" },
};

const { title: TITLE_MAX, description: DESCRIPTION_MAX, seoTitle: SEO_TITLE_MAX, seoDescription: SEO_DESCRIPTION_MAX, content: CONTENT_MAX } = BLOG_FIELD_MAX_LENGTHS;

export function mapWxrItem(item: WxrItem, site: WordPressSite): SourceItem[] {
  const id = item.postId.trim();
  const sourceId = `wordpress:${site.key}:${id}`;
  const title = plainText(item.title) || "(untitled)";
  const comments: SourceItem[] = item.comments.map((comment) => ({
    kind: "skipped",
    sourceId: `${sourceId}:comment:${comment.id}`,
    what: "comment",
    title: `Comment by ${plainText(comment.author) || "an anonymous reader"} on "${title}"`,
    reason: "comments are not imported",
  }));
  const type = item.postType.trim() || "post";
  const status = item.status.trim();
  const skipped = (what: string, reason: string): SourceItem[] => [{ kind: "skipped", sourceId, what, title, reason }, ...comments];
  if (type !== "post") {
    const known = SKIPPED_TYPES[type];
    return known ? skipped(known.what, known.reason) : skipped(type, `"${type}" is a custom post type of the WordPress site: only posts are imported`);
  }
  if (status === "trash") return skipped("post", "it is in WordPress's trash");
  if (status === "auto-draft") return skipped("post", "it is an automatic draft WordPress made and nobody saved");
  return [{ kind: "post", post: mapPost(item, site, sourceId) }, ...comments];
}

function mapPost(item: WxrItem, site: WordPressSite, sourceId: string): SourcePost {
  const notes: string[] = [];
  const rawTitle = item.title.trim();
  let title = plainText(rawTitle);
  if (!title) {
    title = "(untitled)";
    notes.push("the post had no title in WordPress");
  } else if (/<[a-z][^>]*>/i.test(rawTitle)) notes.push("the title's HTML markup was removed");
  title = cut(title, TITLE_MAX, "title", notes);

  const content = wordPressContentToMarkdown(item.content, {
    postId: item.postId.trim(),
    link: item.link.trim(),
    attachments: site.attachments,
    footnotes: item.meta.get("footnotes") ?? "",
  });
  notes.push(...content.notes);
  if (item.oversized.length > 0) notes.push(`${item.oversized.join(", ")} longer than the export reader reads: cut`);
  const markdown = cut(content.markdown, CONTENT_MAX, "content", notes);

  const posted = wordPressDate(item.postDateGmt) ?? wordPressDate(item.postDate);
  const { status, date } = mappedStatus(item, posted, notes);

  const thumbnailId = item.meta.get("_thumbnail_id")?.trim();
  const cover = thumbnailId ? site.attachments.get(thumbnailId) : undefined;
  if (thumbnailId && !cover) notes.push(`the featured image (attachment ${thumbnailId}) is not in the export`);

  const seoTitle = yoastText(item.meta.get("_yoast_wpseo_title") ?? "", title, site.title);
  const seoDescription = yoastText(item.meta.get("_yoast_wpseo_metadesc") ?? "", title, site.title);
  return {
    sourceId,
    title,
    slug: item.postName.trim(),
    excerpt: cut(plainText(item.excerpt), DESCRIPTION_MAX, "excerpt", notes),
    markdown,
    contentNotes: notes,
    status,
    date,
    createdAt: posted,
    updatedAt: wordPressDate(item.postModifiedGmt),
    tags: item.terms.map((term) => plainText(term.name)).filter(Boolean),
    coverImage: cover?.url ?? null,
    seoTitle: cut(seoTitle, SEO_TITLE_MAX, "SEO title", notes),
    seoDescription: cut(seoDescription, SEO_DESCRIPTION_MAX, "SEO description", notes),
    oldPath: oldPath(item.link),
  };
}

/** publish → published, future → scheduled, anything else a draft (docs/migrating.md); a password-protected post is never made public. */
function mappedStatus(item: WxrItem, posted: Date | null, notes: string[]): Pick<SourcePost, "status" | "date"> {
  const status = item.status.trim();
  const isProtected = item.postPassword.trim() !== "";
  if ((status === "publish" || status === "future") && isProtected) {
    notes.push("was password-protected in WordPress; imported as a draft");
    return { status: "draft", date: null };
  }
  if (status === "publish") return { status: "published", date: posted };
  if (status === "future") return { status: "scheduled", date: posted };
  if (status === "private") notes.push("was private in WordPress; imported as a draft");
  else if (status !== "draft" && status !== "pending") notes.push(`had the status "${status}" in WordPress; imported as a draft`);
  return { status: "draft", date: null };
}

/** WordPress's "2019-05-01 09:30:00" (the GMT one, or the site's local time when that is all there is); "0000-00-00 00:00:00" is no date. */
function wordPressDate(text: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})/.exec(text.trim());
  if (!match || match[1] === "0000") return null;
  const date = new Date(`${match[1]}-${match[2]}-${match[3]}T${match[4]}:${match[5]}:${match[6]}Z`);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** The path of the post's permalink; none for a draft's "?p=123" or a link that is no web address. */
function oldPath(link: string): string | null {
  try {
    const url = new URL(link.trim());
    if (!/^https?:$/.test(url.protocol) || url.pathname === "/") return null;
    return url.pathname;
  } catch {
    return null;
  }
}

const htmlParser = unified().use(rehypeParse, { fragment: true });

/** HTML as the text a reader saw (titles, excerpts and term names may hold markup and entities), on one line. */
export function plainText(html: string): string {
  if (!/[<&]/.test(html)) return html.replace(/\s+/g, " ").trim();
  return hastToString(htmlParser.parse(html)).replace(/\s+/g, " ").trim();
}

/** Yoast SEO's templates ("%%title%% %%sep%% %%sitename%%") with the variables we know filled, the others left out. */
function yoastText(template: string, title: string, siteName: string): string {
  const text = plainText(template);
  if (!text.includes("%%")) return text;
  const values: Record<string, string> = { title, sitename: siteName, sep: "–" };
  return text
    .replace(/%%(\w+)%%/g, (_, name: string) => values[name] ?? "")
    .replace(/\s+/g, " ")
    .replace(/^[\s–-]+|[\s–-]+$/g, "");
}

/** The text cut to our field's limit (src/shared/blog-fields.ts), on a character boundary, with a note. */
function cut(text: string, max: number, field: string, notes: string[]): string {
  if (text.length <= max) return text;
  const characters = [...text];
  notes.push(`the ${field} was cut to ${max} characters (it had ${characters.length})`);
  let kept = "";
  for (const character of characters) {
    if (kept.length + character.length > max - 1) break;
    kept += character;
  }
  return `${kept}…`;
}
