import "server-only";
import { htmlToMarkdown } from "../html-to-markdown";
import { wpautop } from "./wpautop";

/**
 * A WordPress post's content as plain HTML, then Markdown (docs/migrating.md, What maps to what).
 * WordPress stores what its themes finish at display time: block-editor comments, shortcodes,
 * URLs alone on a line that become embeds, footnotes kept in post meta, classic posts without
 * paragraphs (wpautop.ts). Each becomes the HTML a reader saw, or a link, or stays as visible text
 * with a note: nothing is dropped silently.
 */

/** An attachment of the export, from the reader's first pass: what galleries and featured images point to. */
export interface Attachment {
  url: string;
  title: string;
  alt: string;
  parent: string;
}

export interface ContentContext {
  /** The post's id (a [gallery] without ids shows the post's attached images). */
  postId: string;
  /** The post's old address: an unresolvable gallery links there. */
  link: string;
  attachments: ReadonlyMap<string, Attachment>;
  /** The "footnotes" post meta of the block editor (a JSON list of {id, content}). */
  footnotes: string;
}

const BLOCK_COMMENT = /<!--\s*\/?wp:[\s\S]*?-->/g;

export function wordPressContentToMarkdown(content: string, context: ContentContext): { markdown: string; notes: string[] } {
  const notes = new Set<string>();
  const hasBlocks = /<!--\s*wp:/.test(content);
  let html = outsidePre(content, (part) => embedLines(renderShortcodes(part, context, notes), notes));
  html = renderFootnotes(html, context.footnotes);
  html = html.replace(BLOCK_COMMENT, "");
  if (!hasBlocks) html = wpautop(html);
  html = codeLanguages(html);
  const converted = htmlToMarkdown(html);
  for (const note of converted.notes) notes.add(note);
  return { markdown: converted.markdown, notes: [...notes] };
}

/** Applies `change` to the HTML outside <pre> elements (code is shown as written). */
function outsidePre(html: string, change: (part: string) => string): string {
  return html
    .split(/(<pre[\s>][\s\S]*?<\/pre>)/i)
    .map((part, index) => (index % 2 === 1 ? part : change(part)))
    .join("");
}

// [name attrs], [name attrs /], [name attrs]content[/name]; [[name]] is WordPress's escape for the text "[name]".
const SHORTCODE = /\[(\[?)([a-zA-Z][\w-]*)(?![\w-])((?:[^[\]/]|\/(?!\]))*?)(?:(\/)\]|\](?:([\s\S]*?)\[\/\2\])?)(\]?)/g;

function renderShortcodes(html: string, context: ContentContext, notes: Set<string>): string {
  return html.replace(SHORTCODE, (match, escapeOpen: string, rawName: string, rawAttributes: string, selfClosing: string | undefined, inner: string | undefined, escapeClose: string) => {
    if (escapeOpen === "[" && escapeClose === "]") return match.slice(1, -1);
    const name = rawName.toLowerCase();
    const attributes = shortcodeAttributes(rawAttributes);
    const body = inner ?? "";
    switch (name) {
      case "caption":
      case "wp_caption":
        return caption(renderShortcodes(body, context, notes), attributes);
      case "gallery":
        return gallery(attributes, context, notes);
      case "playlist":
        return playlist(attributes, context, notes);
      case "embed":
        return embedLink(body.trim(), notes);
      case "audio":
      case "video":
        return media(name, attributes, body, notes);
      case "code":
      case "sourcecode":
        return codeShortcode(attributes, body);
    }
    const enclosing = inner !== undefined && !selfClosing;
    // Text in brackets that is no shortcode ("[sic]") stays as written, without a note.
    if (!enclosing && !/=/.test(rawAttributes) && !/[-_]/.test(name)) return match;
    notes.add(`[${name}] kept as text: it is a WordPress shortcode this blog cannot render`);
    if (!enclosing) return match;
    return `${escapeOpen}[${rawName}${rawAttributes}]${renderShortcodes(body, context, notes)}[/${rawName}]${escapeClose}`;
  });
}

/** A shortcode's attributes, as WordPress parses them (named ones by name, the others by position). */
function shortcodeAttributes(text: string): Record<string, string> {
  const attributes: Record<string, string> = {};
  let position = 0;
  const pattern = /([\w-]+)\s*=\s*"([^"]*)"(?:\s|$)|([\w-]+)\s*=\s*'([^']*)'(?:\s|$)|([\w-]+)\s*=\s*([^\s'"]+)(?:\s|$)|"([^"]*)"(?:\s|$)|'([^']*)'(?:\s|$)|(\S+)(?:\s|$)/g;
  for (const match of text.replace(/[\u00a0\u200b]/g, " ").matchAll(pattern)) {
    if (match[1]) attributes[match[1].toLowerCase()] = match[2] ?? "";
    else if (match[3]) attributes[match[3].toLowerCase()] = match[4] ?? "";
    else if (match[5]) attributes[match[5].toLowerCase()] = match[6] ?? "";
    else attributes[String(position++)] = match[7] ?? match[8] ?? match[9] ?? "";
  }
  return attributes;
}

const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** [caption]<img> Its caption[/caption] (or caption="…"): a figure with its caption, as WordPress shows it. */
function caption(body: string, attributes: Record<string, string>): string {
  let image = body;
  let text = attributes.caption ?? "";
  if (!text) {
    const split = /((?:<a [^>]+>\s*)?<img [^>]+>(?:\s*<\/a>)?)([\s\S]*)/i.exec(body);
    if (split) [image, text] = [split[1] ?? "", (split[2] ?? "").trim()];
  }
  return `<figure>${image}${text ? `<figcaption>${text}</figcaption>` : ""}</figure>`;
}

function attachmentIds(attributes: Record<string, string>): string[] {
  return (attributes.ids ?? attributes.include ?? "")
    .split(",")
    .map((id) => id.trim())
    .filter(Boolean);
}

/** The attachments a [gallery] or [playlist] shows: its ids, or else the post's attached files (WordPress's default). */
function shownAttachments(attributes: Record<string, string>, context: ContentContext): { resolved: Attachment[]; missing: string[] } {
  const ids = attachmentIds(attributes);
  if (ids.length === 0) return { resolved: [...context.attachments.values()].filter((attachment) => attachment.parent === context.postId), missing: [] };
  const resolved: Attachment[] = [];
  const missing: string[] = [];
  for (const id of ids) {
    const attachment = context.attachments.get(id);
    if (attachment) resolved.push(attachment);
    else missing.push(id);
  }
  return { resolved, missing };
}

function gallery(attributes: Record<string, string>, context: ContentContext, notes: Set<string>): string {
  const { resolved, missing } = shownAttachments(attributes, context);
  if (missing.length > 0) notes.add(`a gallery's images ${missing.join(", ")} are not in the export: left out of the gallery`);
  if (resolved.length === 0) return unresolvable("gallery", context, notes);
  const images = resolved.map((image) => `<li><img src="${escapeHtml(image.url)}" alt="${escapeHtml(image.alt || image.title)}"></li>`);
  return `<ul>${images.join("")}</ul>`;
}

function playlist(attributes: Record<string, string>, context: ContentContext, notes: Set<string>): string {
  const { resolved } = shownAttachments(attributes, context);
  if (resolved.length === 0) return unresolvable("playlist", context, notes);
  notes.add("a [playlist] is kept as links to its files");
  return `<ul>${resolved.map((file) => `<li><a href="${escapeHtml(file.url)}">${escapeHtml(file.title || file.url)}</a></li>`).join("")}</ul>`;
}

/** A gallery or playlist whose files the export does not carry: a link to the original post, or its name as text. */
function unresolvable(what: string, context: ContentContext, notes: Set<string>): string {
  if (/^https?:\/\//i.test(context.link)) {
    notes.add(`a [${what}] whose files are not in the export is kept as a link to the original post`);
    return `<p><a href="${escapeHtml(context.link)}">${what === "gallery" ? "Gallery" : "Playlist"} (on the original site)</a></p>`;
  }
  notes.add(`a [${what}] whose files are not in the export is kept as text`);
  return `<p>[${what}]</p>`;
}

function embedLink(url: string, notes: Set<string>): string {
  if (!/^https?:\/\/\S+$/i.test(url)) {
    notes.add("an [embed] without a web address is kept as text");
    return escapeHtml(url);
  }
  notes.add(`an embed (${url}) is kept as a link`);
  return `<p><a href="${escapeHtml(url)}">${escapeHtml(url)}</a></p>`;
}

const MEDIA_SOURCE_KEYS = ["src", "mp3", "m4a", "ogg", "wav", "wma", "flac", "mp4", "m4v", "webm", "ogv", "wmv", "flv", "0"];

function media(name: string, attributes: Record<string, string>, body: string, notes: Set<string>): string {
  const source = MEDIA_SOURCE_KEYS.map((key) => attributes[key]).find((value) => value && /^https?:\/\//i.test(value)) ?? body.trim();
  if (!/^https?:\/\/\S+$/i.test(source)) {
    notes.add(`an [${name}] without a file address is kept as text`);
    return `[${name}]`;
  }
  notes.add(`an ${name} file (${source}) is kept as a link`);
  return `<p><a href="${escapeHtml(source)}">${escapeHtml(source)}</a></p>`;
}

/** [code language="php"]…[/code] (WordPress.com's syntax highlighter): a code block in that language. */
function codeShortcode(attributes: Record<string, string>, body: string): string {
  const language = (attributes.language ?? attributes.lang ?? "").replace(/[^\w+#-]/g, "");
  // The text is the code as typed, unless the visual editor escaped it already.
  const code = /&(lt|gt|amp|quot|#\d+);/.test(body) ? body : escapeHtml(body);
  return `<pre><code${language ? ` class="language-${language}"` : ""}>${code.replace(/^\n+|\n+$/g, "")}</code></pre>`;
}

/** A URL alone on its line: WordPress embeds it (a video, a post); here it is a link. */
function embedLines(html: string, notes: Set<string>): string {
  return html.replace(/^(\s*)(https?:\/\/[^\s<>"]+)(\s*)$/gim, (_, before: string, url: string, after: string) => {
    notes.add(`an embed (${url.replaceAll("&amp;", "&")}) is kept as a link`);
    return `${before}<p><a href="${url}">${url}</a></p>${after}`;
  });
}

/**
 * The block editor's footnotes: markers <sup data-fn="id"> in the text, their notes in the post's
 * "footnotes" meta, listed where the footnotes block stands. Both become the HTML of GFM footnotes
 * (what our own pages render), numbered in the order they are referenced, which html-to-markdown.ts
 * turns back into Markdown footnotes.
 */
function renderFootnotes(html: string, meta: string): string {
  const notesById = new Map<string, string>();
  try {
    const parsed: unknown = meta ? JSON.parse(meta) : [];
    if (Array.isArray(parsed)) {
      for (const entry of parsed as { id?: unknown; content?: unknown }[]) {
        if (typeof entry?.id === "string") notesById.set(entry.id, typeof entry.content === "string" ? entry.content : "");
      }
    }
  } catch {
    // A broken meta leaves the markers as plain numbers below.
  }
  const order: string[] = [];
  const withMarkers = html.replace(/<sup\b[^>]*\bdata-fn="([^"]+)"[^>]*>[\s\S]*?<\/sup>/gi, (_, id: string) => {
    if (!notesById.has(id)) return "";
    const number = order.includes(id) ? order.indexOf(id) + 1 : order.push(id);
    return `<sup><a href="#fn-${number}" data-footnote-ref>${number}</a></sup>`;
  });
  if (order.length === 0) return withMarkers.replace(/<!--\s*wp:footnotes\b[\s\S]*?-->/g, "");
  const section = `<section data-footnotes><ol>${order.map((id, index) => `<li id="fn-${index + 1}"><p>${notesById.get(id) ?? ""}</p></li>`).join("")}</ol></section>`;
  let placed = false;
  const result = withMarkers.replace(/<!--\s*wp:footnotes\b[\s\S]*?-->/, () => {
    placed = true;
    return section;
  });
  return placed ? result : `${result}${section}`;
}

/**
 * A code block's language, wherever WordPress's editors and plugins put it (`<pre class="brush:
 * php">`, `<pre class="language-php">`, `<code lang="php">`), moved to `<code class="language-…">`,
 * where the HTML to Markdown step reads it.
 */
function codeLanguages(html: string): string {
  return html.replace(/<pre\b([^>]*)>([\s\S]*?)<\/pre>/gi, (element, preAttributes: string, inner: string) => {
    const code = /^\s*<code\b([^>]*)>([\s\S]*)<\/code>\s*$/i.exec(inner);
    const attributes = `${preAttributes} ${code?.[1] ?? ""}`;
    const language = /\bbrush:\s*([\w+#-]+)/i.exec(attributes)?.[1] ?? /\b(?:language|lang)-([\w+#-]+)/i.exec(attributes)?.[1] ?? /\blang="([\w+#-]+)"/i.exec(attributes)?.[1];
    if (!language) return element;
    return `<pre><code class="language-${language.toLowerCase()}">${code ? code[2] : inner}</code></pre>`;
  });
}
