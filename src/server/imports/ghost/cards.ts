import "server-only";
import type { Element, ElementContent } from "hast";
import { dropComments, findElement, h, hasClass, parseHtml, replaceElements, serializeHtml, textOf } from "../html-tree";

/**
 * Ghost's rendered cards in a post's `html` (the kg-card markup its editor writes) as plain HTML
 * (docs/migrating.md, Ghost): a bookmark, button, file, audio or video becomes a link, a callout a
 * quote, a toggle its heading and content, a product or header its text; a signup form goes. Each
 * change is said in `notes`. Images, galleries, code and embeds are plain enough already.
 */
export function plainGhostHtml(html: string, notes: string[]): string {
  const tree = parseHtml(html);
  const byClass = (name: string) => (element: Element) => hasClass(element, name);
  const href = (element: Element | undefined, attribute = "href") => String(element?.properties?.[attribute] ?? "");
  const linkParagraph = (url: string, text: string): Element => h("p", {}, [h("a", { href: url }, [text || url])]);

  replaceElements(tree, (element): ElementContent[] | undefined => {
    if (hasClass(element, "kg-bookmark-card")) {
      const url = href(findElement(element, byClass("kg-bookmark-container")));
      if (!url) return undefined;
      notes.push(`a bookmark card (${url}) is kept as a link`);
      const title = findElement(element, byClass("kg-bookmark-title"));
      const description = findElement(element, byClass("kg-bookmark-description"));
      const caption = findElement(element, (each) => each.tagName === "figcaption");
      return [
        linkParagraph(url, title ? textOf(title) : url),
        ...(description && textOf(description) ? [h("p", {}, [textOf(description)])] : []),
        ...(caption ? [h("p", {}, caption.children)] : []),
      ];
    }
    if (hasClass(element, "kg-callout-card")) {
      notes.push("a callout card is kept as a quote");
      const emoji = findElement(element, byClass("kg-callout-emoji"));
      const text = findElement(element, byClass("kg-callout-text"));
      return [h("blockquote", {}, [h("p", {}, [...(emoji ? [`${textOf(emoji)} `] : []), ...(text?.children ?? [])])])];
    }
    if (hasClass(element, "kg-toggle-card")) {
      notes.push("a toggle card is kept open, its heading in bold");
      const heading = findElement(element, byClass("kg-toggle-heading-text"));
      const content = findElement(element, byClass("kg-toggle-content"));
      return [h("p", {}, [h("strong", {}, heading?.children ?? [])]), ...(content?.children ?? [])];
    }
    if (hasClass(element, "kg-button-card")) {
      const button = findElement(element, (each) => each.tagName === "a");
      if (!button) return [];
      notes.push(`a button (${href(button)}) is kept as a link`);
      return [linkParagraph(href(button), textOf(button))];
    }
    if (hasClass(element, "kg-file-card")) {
      const anchor = findElement(element, (each) => each.tagName === "a");
      const title = findElement(element, byClass("kg-file-card-title"));
      if (!anchor) return undefined;
      notes.push(`a file (${href(anchor)}) is kept as a link`);
      return [linkParagraph(href(anchor), title ? textOf(title) : href(anchor))];
    }
    if (hasClass(element, "kg-audio-card") || hasClass(element, "kg-video-card")) {
      const kind = hasClass(element, "kg-audio-card") ? "audio" : "video";
      const media = findElement(element, (each) => each.tagName === kind);
      const src = href(media, "src") || href(findElement(media ?? element, (each) => each.tagName === "source"), "src");
      if (!src) return undefined;
      notes.push(`${kind === "audio" ? "an" : "a"} ${kind} (${src}) is kept as a link`);
      const title = findElement(element, byClass("kg-audio-title"));
      const caption = findElement(element, (each) => each.tagName === "figcaption");
      return [linkParagraph(src, title ? textOf(title) : kind === "audio" ? "Audio" : "Video"), ...(caption ? [h("p", {}, caption.children)] : [])];
    }
    if (hasClass(element, "kg-product-card") || hasClass(element, "kg-header-card")) {
      const kind = hasClass(element, "kg-product-card") ? "product" : "header";
      notes.push(`a ${kind} card is kept as text`);
      const parts = [
        findElement(element, byClass(kind === "product" ? "kg-product-card-title" : "kg-header-card-header")),
        findElement(element, byClass(kind === "product" ? "kg-product-card-description" : "kg-header-card-subheader")),
      ];
      const image = findElement(element, (each) => each.tagName === "img");
      const button = findElement(element, (each) => each.tagName === "a");
      return [
        ...parts.filter((part): part is Element => Boolean(part)).map((part, index) => (index === 0 ? h("p", {}, [h("strong", {}, [textOf(part)])]) : h("div", {}, part.children))),
        ...(image ? [h("p", {}, [image])] : []),
        ...(button && href(button) ? [linkParagraph(href(button), textOf(button))] : []),
      ];
    }
    if (hasClass(element, "kg-signup-card")) {
      notes.push("a signup form was left out");
      return [];
    }
    return undefined;
  });
  if (tree.children.some((node) => node.type === "comment" && node.value.trim() === "members-only")) {
    notes.push("the members-only divider was left out: the whole post is public here");
  }
  // Ghost's card markers (<!--kg-card-begin: html-->) are not content.
  dropComments(tree);
  return serializeHtml(tree);
}
