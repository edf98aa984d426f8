import "server-only";
import { htmlToMarkdown } from "../html-to-markdown";

/**
 * A Ghost post's body as Markdown (docs/migrating.md, Ghost): Ghost keeps it as `html` (every
 * export since 1.0), `lexical` (the editor's JSON tree, 5.x) and `mobiledoc` (the editor's JSON
 * before 5.x). The readers render the JSON ones into plain HTML, card by card; a markdown card
 * keeps its Markdown as written. A card with no plain HTML equivalent becomes a link or text and
 * a note, never nothing.
 */

export type Segment = { html: string } | { markdown: string };

export interface RenderedBody {
  markdown: string;
  notes: string[];
}

export const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

type Json = Record<string, unknown>;
const str = (value: unknown) => (typeof value === "string" ? value : "");
/** The editor's JSON as parsed; undefined when it is not JSON. */
function parsedJson(source: string): unknown {
  try {
    return JSON.parse(source) as unknown;
  } catch {
    return undefined;
  }
}
const isRecord = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The Markdown of a mobiledoc that is one markdown card and nothing else, as Ghost kept posts
 * written in Markdown (and as our export carries every blog, docs/migrating.md): taken as written,
 * ahead of the `html` rendered from it, so nothing is lost converting it back. Null otherwise.
 */
export function markdownCardOnly(source: string): string | null {
  const document = parsedJson(source);
  if (!isRecord(document) || !Array.isArray(document.sections) || !Array.isArray(document.cards)) return null;
  if (document.sections.length !== 1 || document.cards.length !== 1) return null;
  const [section] = document.sections as unknown[];
  const [card] = document.cards as unknown[];
  // A card section is [10, index of its card].
  if (!Array.isArray(section) || section[0] !== 10 || section[1] !== 0) return null;
  if (!Array.isArray(card) || !["markdown", "card-markdown"].includes(str(card[0])) || !isRecord(card[1])) return null;
  return typeof card[1].markdown === "string" ? card[1].markdown : null;
}

/** Turns rendered segments into one Markdown body, with the converter's notes after the reader's. */
export function segmentsToMarkdown(segments: Segment[], notes: string[]): RenderedBody {
  const parts: string[] = [];
  const all = [...notes];
  let html = "";
  const flush = () => {
    if (!html.trim()) return;
    const converted = htmlToMarkdown(html);
    if (converted.markdown) parts.push(converted.markdown);
    all.push(...converted.notes);
    html = "";
  };
  for (const segment of segments) {
    if ("html" in segment) html += segment.html;
    else {
      flush();
      if (segment.markdown.trim()) parts.push(segment.markdown.trim());
    }
  }
  flush();
  return { markdown: parts.join("\n\n"), notes: all };
}

const link = (url: string, text: string) => `<p><a href="${escapeHtml(url)}">${escapeHtml(text || url)}</a></p>`;
const captionHtml = (caption: unknown) => (str(caption).trim() ? `<p>${str(caption)}</p>` : "");

function image(payload: Json): string {
  const src = str(payload.src);
  if (!src) return "";
  const img = `<img src="${escapeHtml(src)}" alt="${escapeHtml(str(payload.alt))}"${payload.title ? ` title="${escapeHtml(str(payload.title))}"` : ""}>`;
  const linked = payload.href ? `<a href="${escapeHtml(str(payload.href))}">${img}</a>` : img;
  return `<figure>${linked}${payload.caption ? `<figcaption>${str(payload.caption)}</figcaption>` : ""}</figure>`;
}

/**
 * One card of either editor (their payloads share names: Koenig's card definitions), as segments.
 * `type` is the lexical node type or the mobiledoc card name.
 */
export function renderCard(type: string, payload: Json, notes: string[]): Segment[] {
  const html = (value: string): Segment[] => (value ? [{ html: value }] : []);
  switch (type) {
    case "image":
      return html(image(payload));
    case "gallery": {
      const images = Array.isArray(payload.images) ? payload.images.filter(isRecord) : [];
      return html(images.map((each) => image({ ...each, caption: each.caption })).join("") + captionHtml(payload.caption));
    }
    case "codeblock":
    case "code": {
      const language = str(payload.language).replace(/[^\w+#.-]/g, "");
      return html(`<pre><code${language ? ` class="language-${language}"` : ""}>${escapeHtml(str(payload.code))}</code></pre>${captionHtml(payload.caption)}`);
    }
    case "markdown":
      return [{ markdown: str(payload.markdown) }];
    case "html":
      return html(str(payload.html));
    case "horizontalrule":
    case "hr":
      return html("<hr>");
    case "bookmark": {
      const url = str(payload.url);
      if (!url) break;
      const metadata = isRecord(payload.metadata) ? payload.metadata : payload;
      notes.push(`a bookmark card (${url}) is kept as a link`);
      const description = str(metadata.description);
      return html(link(url, str(metadata.title)) + (description ? `<p>${escapeHtml(description)}</p>` : "") + captionHtml(payload.caption));
    }
    case "embed": {
      const url = str(payload.url);
      if (!url) {
        // An embed pasted as code: its HTML (a frame becomes a link in html-to-markdown.ts).
        return html(str(payload.html) + captionHtml(payload.caption));
      }
      notes.push(`an embed (${url}) is kept as a link`);
      const metadata = isRecord(payload.metadata) ? payload.metadata : {};
      return html(link(url, str(metadata.title)) + captionHtml(payload.caption));
    }
    case "callout": {
      notes.push("a callout card is kept as a quote");
      const emoji = str(payload.calloutEmoji);
      // Koenig wraps a one-paragraph callout in <p>: the emoji joins that paragraph.
      const single = /^\s*<p[^>]*>([\s\S]*)<\/p>\s*$/.exec(str(payload.calloutText));
      const text = single && !/<p[\s>]/.test(single[1]!) ? single[1]! : str(payload.calloutText);
      return html(`<blockquote><p>${emoji ? `${escapeHtml(emoji)} ` : ""}${text}</p></blockquote>`);
    }
    case "aside":
      return html(`<blockquote>${str(payload.html)}</blockquote>`);
    case "toggle":
      notes.push("a toggle card is kept open, its heading in bold");
      return html(`<p><strong>${str(payload.heading)}</strong></p>${str(payload.content)}`);
    case "button": {
      const url = str(payload.buttonUrl);
      if (!url) break;
      notes.push(`a button (${url}) is kept as a link`);
      return html(link(url, str(payload.buttonText)));
    }
    case "video":
    case "audio":
    case "file": {
      const src = str(payload.src);
      if (!src) break;
      notes.push(`${type === "audio" ? "an" : "a"} ${type} (${src}) is kept as a link`);
      const title = str(payload.fileTitle) || str(payload.title) || str(payload.fileName) || `${type[0]!.toUpperCase()}${type.slice(1)}`;
      return html(link(src, title) + captionHtml(payload.caption || payload.fileCaption));
    }
    case "product": {
      notes.push("a product card is kept as text");
      const url = str(payload.productUrl);
      return html(
        `<p><strong>${str(payload.productTitle)}</strong></p>${str(payload.productDescription)}` +
          (payload.productImageSrc ? image({ src: payload.productImageSrc }) : "") +
          (url ? link(url, str(payload.productButton)) : ""),
      );
    }
    case "header":
    case "call-to-action": {
      notes.push(`a ${type === "header" ? "header" : "call-to-action"} card is kept as text`);
      const url = str(payload.buttonUrl);
      const text = type === "header" ? `<h2>${str(payload.header)}</h2>${payload.subheader ? `<p>${str(payload.subheader)}</p>` : ""}` : str(payload.textValue);
      return html(text + (url ? link(url, str(payload.buttonText)) : ""));
    }
    case "signup":
      notes.push("a signup form was left out");
      return [];
    case "paywall":
      notes.push("the members-only divider was left out: the whole post is public here");
      return [];
    case "email":
    case "email-cta":
      notes.push("content Ghost showed only in the email was left out");
      return [];
  }
  const url = str(payload.url) || str(payload.src);
  if (url) {
    notes.push(`a ${type} card (${url}) is kept as a link`);
    return html(link(url, url));
  }
  notes.push(`a ${type} card was left out (it has no plain equivalent)`);
  return [];
}

// Lexical's text format bit flags (Koenig's text nodes).
const TEXT_FORMATS: [number, string][] = [
  [16, "code"],
  [1, "strong"],
  [2, "em"],
  [4, "s"],
  [32, "sub"],
  [64, "sup"],
  [128, "mark"],
];

const ELEMENT_TAGS: Record<string, string> = { paragraph: "p", quote: "blockquote", "extended-quote": "blockquote", aside: "blockquote", listitem: "li" };

/** A lexical document (the post's `lexical` JSON string) as segments. */
export function renderLexical(source: string, notes: string[]): Segment[] {
  const document = parsedJson(source);
  if (document === undefined) {
    notes.push("the post's content (lexical) could not be read and was left out");
    return [];
  }
  const root = isRecord(document) && isRecord(document.root) ? document.root : null;
  if (!root) {
    notes.push("the post's content (lexical) has no root and was left out");
    return [];
  }
  const segments: Segment[] = [];
  for (const node of children(root)) {
    const inline = renderLexicalInline(node, notes);
    if (inline !== null) segments.push({ html: inline });
    else segments.push(...renderCard(str(node.type), node, notes));
  }
  return segments;
}

const children = (node: Json): Json[] => (Array.isArray(node.children) ? node.children.filter(isRecord) : []);

/** An element or text node as HTML; null for a card (a decorator node, rendered by renderCard). */
function renderLexicalInline(node: Json, notes: string[]): string | null {
  const type = str(node.type);
  const inner = () => children(node).map((child) => renderLexicalInline(child, notes) ?? cardInline(child, notes)).join("");
  switch (type) {
    case "text":
    case "extended-text":
    case "tk":
    case "at-link": {
      const format = typeof node.format === "number" ? node.format : 0;
      return TEXT_FORMATS.reduce((html, [flag, tag]) => (format & flag ? `<${tag}>${html}</${tag}>` : html), escapeHtml(str(node.text)));
    }
    case "linebreak":
      return "<br>";
    case "tab":
      return " ";
    case "zwnj":
      return "";
    case "link":
    case "autolink":
      return `<a href="${escapeHtml(str(node.url))}">${inner()}</a>`;
    case "heading":
    case "extended-heading": {
      const tag = /^h[1-6]$/.test(str(node.tag)) ? str(node.tag) : "h2";
      return `<${tag}>${inner()}</${tag}>`;
    }
    case "list": {
      const tag = node.listType === "number" || node.tag === "ol" ? "ol" : "ul";
      const start = tag === "ol" && typeof node.start === "number" && node.start !== 1 ? ` start="${node.start}"` : "";
      return `<${tag}${start}>${inner()}</${tag}>`;
    }
  }
  const tag = ELEMENT_TAGS[type];
  if (tag) return `<${tag}>${inner()}</${tag}>`;
  if (Array.isArray(node.children)) return inner();
  return null;
}

/** A card met inside text (rare: a pasted card in a list item), rendered in place. */
function cardInline(node: Json, notes: string[]): string {
  return renderCard(str(node.type), node, notes)
    .map((segment) => ("html" in segment ? segment.html : escapeHtml(segment.markdown)))
    .join("");
}

/**
 * A mobiledoc document (Ghost 1.x–4.x, the post's `mobiledoc` JSON string) as segments: sections of
 * marked-up text, lists, images and cards (docs/migrating.md, Ghost). Only read when the export has
 * no `html` for the post.
 */
export function renderMobiledoc(source: string, notes: string[]): Segment[] {
  const document = parsedJson(source);
  if (document === undefined) {
    notes.push("the post's content (mobiledoc) could not be read and was left out");
    return [];
  }
  if (!isRecord(document) || !Array.isArray(document.sections)) {
    notes.push("the post's content (mobiledoc) has no sections and was left out");
    return [];
  }
  const markups = Array.isArray(document.markups) ? (document.markups as unknown[]) : [];
  const atoms = Array.isArray(document.atoms) ? (document.atoms as unknown[]) : [];
  const cards = Array.isArray(document.cards) ? (document.cards as unknown[]) : [];

  const markers = (list: unknown): string => {
    if (!Array.isArray(list)) return "";
    const open: string[] = [];
    let html = "";
    for (const marker of list) {
      if (!Array.isArray(marker)) continue;
      const [kind, opened, closeCount, value] = marker as [number, number[], number, unknown];
      for (const index of Array.isArray(opened) ? opened : []) {
        const markup = markups[index];
        if (!Array.isArray(markup)) continue;
        const tag = String(markup[0]).toLowerCase();
        if (!/^[a-z][a-z0-9]*$/.test(tag)) continue;
        const attributes = Array.isArray(markup[1]) ? (markup[1] as unknown[]) : [];
        let attrs = "";
        for (let i = 0; i + 1 < attributes.length; i += 2) {
          if (/^[a-z-]+$/i.test(String(attributes[i]))) attrs += ` ${String(attributes[i])}="${escapeHtml(String(attributes[i + 1]))}"`;
        }
        html += `<${tag}${attrs}>`;
        open.push(tag);
      }
      if (kind === 0) html += escapeHtml(str(value));
      else {
        const atom = atoms[Number(value)];
        html += Array.isArray(atom) && atom[0] === "soft-return" ? "<br>" : Array.isArray(atom) ? escapeHtml(str(atom[1])) : "";
      }
      for (let i = 0; i < (typeof closeCount === "number" ? closeCount : 0) && open.length; i++) html += `</${open.pop()}>`;
    }
    while (open.length) html += `</${open.pop()}>`;
    return html;
  };

  const segments: Segment[] = [];
  for (const section of document.sections as unknown[]) {
    if (!Array.isArray(section)) continue;
    const [kind] = section as [number];
    if (kind === 1) {
      const tag = String(section[1]).toLowerCase();
      const safe = /^(p|h[1-6]|blockquote|aside|pull-quote)$/.test(tag) ? (tag === "aside" || tag === "pull-quote" ? "blockquote" : tag) : "p";
      segments.push({ html: `<${safe}>${markers(section[2])}</${safe}>` });
    } else if (kind === 2) {
      segments.push(...renderCard("image", { src: section[1] }, notes));
    } else if (kind === 3) {
      const tag = String(section[1]).toLowerCase() === "ol" ? "ol" : "ul";
      const items = Array.isArray(section[2]) ? (section[2] as unknown[]) : [];
      segments.push({ html: `<${tag}>${items.map((item) => `<li>${markers(item)}</li>`).join("")}</${tag}>` });
    } else if (kind === 10) {
      const card = cards[Number(section[1])];
      if (Array.isArray(card)) segments.push(...renderCard(String(card[0]).replace(/^card-|-card$/g, ""), isRecord(card[1]) ? card[1] : {}, notes));
    }
  }
  return segments;
}
