import "server-only";
import { randomBytes } from "node:crypto";
import type { Element, ElementContent } from "hast";
import { htmlToMarkdown } from "../html-to-markdown";
import { classesOf, dropComments, findElement, h, hasClass, parseHtml, replaceElements, serializeHtml, textOf } from "../html-tree";

/**
 * A Substack post's body (posts/<id>.html) as Markdown (docs/migrating.md, Substack): its markup
 * made plain first. Captioned images become a figure with its caption, footnotes become Markdown
 * footnotes; subscribe, share and comment buttons, subscription widgets and the paywall marker are
 * left out with a note; embedded posts, tweets and videos become links with a note.
 */
export interface ConvertedPost {
  markdown: string;
  notes: string[];
}

const href = (element: Element | undefined, attribute = "href") => String(element?.properties?.[attribute] ?? "");

function dataAttrs(element: Element): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(String(element.properties?.dataAttrs ?? "{}"));
    return typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** substackcdn.com/image/fetch/<transformations>/<original URL, encoded> → the original. */
export function originalImageUrl(src: string): string {
  const match = /^https:\/\/substackcdn\.com\/image\/fetch\/[^/]+\/(https?%3A%2F%2F.+)$/i.exec(src);
  if (!match) return src;
  try {
    return decodeURIComponent(match[1]!);
  } catch {
    return src;
  }
}

const linkParagraph = (url: string, text: string): Element => h("p", {}, [h("a", { href: url }, [text || url])]);

/** What a Substack button does, by its address: the ones that only work on Substack are left out. */
function buttonKind(url: string): string | null {
  if (/\/subscribe(\?|$|\/)/.test(url) || /[?&]action=subscribe/.test(url)) return "Subscribe";
  if (/[?&]action=share/.test(url) || /\/share(\?|$)/.test(url)) return "Share";
  if (/\/comments(\?|$|#)/.test(url)) return "Leave a comment";
  return null;
}

export function substackHtmlToMarkdown(html: string): ConvertedPost {
  const notes: string[] = [];
  const tree = parseHtml(html);
  dropComments(tree);
  // Footnotes: each anchor becomes a token plain enough to survive the conversion untouched.
  const token = `substackfootnote${randomBytes(6).toString("hex")}n`;
  const definitions: { label: string; html: string }[] = [];

  replaceElements(tree, (element): ElementContent[] | undefined => {
    const classes = classesOf(element);
    if (classes.some((name) => name.startsWith("subscription-widget") || name === "subscribe-widget")) {
      notes.push("a Subscribe button was left out");
      return [];
    }
    if (hasClass(element, "button-wrapper") || (element.tagName === "a" && hasClass(element, "button"))) {
      const anchor = element.tagName === "a" ? element : findElement(element, (each) => each.tagName === "a");
      const url = href(anchor) || String(dataAttrs(element).url ?? "");
      const kind = buttonKind(url);
      if (kind || !url) {
        notes.push(`a ${kind ?? "Substack"} button was left out`);
        return [];
      }
      notes.push(`a button (${url}) is kept as a link`);
      return [linkParagraph(url, anchor ? textOf(anchor) : url)];
    }
    if (hasClass(element, "paywall-jump") || hasClass(element, "paywall")) {
      notes.push("the paywall marker was left out: the whole post is public here");
      return [];
    }
    if (hasClass(element, "footnote-anchor")) {
      const label = (textOf(element) || href(element).replace(/^#footnote-/, "")).replace(/[^\w-]/g, "");
      return label ? [{ type: "text", value: `${token}${label}n` }] : [];
    }
    if (hasClass(element, "footnote")) {
      const number = findElement(element, (each) => hasClass(each, "footnote-number"));
      const content = findElement(element, (each) => hasClass(each, "footnote-content"));
      const label = ((number && textOf(number)) || String(element.properties?.id ?? "").replace(/^footnote-/, "")).replace(/[^\w-]/g, "");
      if (label && content) definitions.push({ label, html: serializeHtml(content) });
      return [];
    }
    if (hasClass(element, "captioned-image-container") || (element.tagName === "figure" && findElement(element, (each) => each.tagName === "img"))) {
      const img = findElement(element, (each) => each.tagName === "img");
      if (!img) return [];
      const caption = findElement(element, (each) => each.tagName === "figcaption");
      return [
        h("figure", {}, [
          h("img", { src: originalImageUrl(href(img, "src")), alt: String(img.properties?.alt ?? ""), title: img.properties?.title ? String(img.properties.title) : undefined }),
          ...(caption ? [h("figcaption", {}, caption.children)] : []),
        ]),
      ];
    }
    if (element.tagName === "img") {
      return [h("img", { src: originalImageUrl(href(element, "src")), alt: String(element.properties?.alt ?? "") })];
    }
    if (hasClass(element, "embedded-post-wrap") || hasClass(element, "embedded-post")) {
      const url = String(dataAttrs(element).url ?? "") || href(findElement(element, (each) => each.tagName === "a"));
      const title = String(dataAttrs(element).title ?? "") || textOf(findElement(element, (each) => hasClass(each, "embedded-post-title")) ?? element);
      if (!url) return undefined;
      notes.push(`an embedded post (${url}) is kept as a link`);
      return [linkParagraph(url, title)];
    }
    if (hasClass(element, "tweet")) {
      const url = String(dataAttrs(element).url ?? "") || href(findElement(element, (each) => each.tagName === "a"));
      if (!url) return undefined;
      notes.push(`a tweet (${url}) is kept as a link`);
      const text = findElement(element, (each) => hasClass(each, "tweet-text"));
      return [...(text ? [h("blockquote", {}, [h("p", {}, text.children)])] : []), linkParagraph(url, "Tweet")];
    }
    if (hasClass(element, "youtube-wrap")) {
      const id = String(dataAttrs(element).videoId ?? "").replace(/[^\w-]/g, "");
      const url = id ? `https://www.youtube.com/watch?v=${id}` : href(findElement(element, (each) => each.tagName === "iframe"), "src");
      if (!url) return undefined;
      notes.push(`a YouTube video (${url}) is kept as a link`);
      return [linkParagraph(url, "YouTube video")];
    }
    if (classes.some((name) => ["native-video-embed", "native-audio-embed", "poll-embed", "digest-post-embed"].includes(name))) {
      const what = classes.find((name) => name.endsWith("embed"))!.replace(/-embed$/, "").replace(/^native-/, "").replace(/-/g, " ");
      notes.push(`a Substack ${what} was left out (it only plays on Substack)`);
      return [];
    }
    return undefined;
  });

  const body = htmlToMarkdown(serializeHtml(tree));
  notes.push(...body.notes);
  const labels = new Set(definitions.map((each) => each.label));
  let markdown = body.markdown.replace(new RegExp(`${token}([\\w-]+)n`, "g"), (_, label: string) => (labels.has(label) ? `[^${label}]` : ""));
  const footnotes = definitions.map(({ label, html: content }) => {
    const converted = htmlToMarkdown(content);
    notes.push(...converted.notes);
    return `[^${label}]: ${converted.markdown.split("\n").join("\n    ")}`;
  });
  if (footnotes.length) markdown = `${markdown}\n\n${footnotes.join("\n\n")}`;
  return { markdown: markdown.trim(), notes };
}
