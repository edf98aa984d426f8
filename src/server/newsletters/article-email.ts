import "server-only";
import type { Element, ElementContent, Root, RootContent } from "hast";
import { toHtml } from "hast-util-to-html";
import { markdownToHast } from "~/lib/markdown";
import { imagePath, parseImagePath, variantFileName, variantWidths, type ImageFormat, type ImageReference } from "~/shared/images";

/**
 * A post's Markdown as its newsletter email shows it (docs/newsletters.md, Sending): the public
 * pages' renderer (src/lib/markdown.ts, the same sanitizing), then made fit for mail clients,
 * which read no stylesheet, no <picture> and no relative address: every element styled inline,
 * every image one file by an absolute URL, every link absolute (resolved against the post's page).
 */

/** The email's column: images are at most this wide (CSS pixels). */
export const EMAIL_WIDTH = 600;

const FONT = "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";
const MONO = "ui-monospace, SFMono-Regular, Menlo, Consolas, 'Liberation Mono', monospace";
// The reader stylesheet's light scheme (src/server/public-site/reader-style.ts): mail clients mostly show light.
const TEXT = "#1e293b";
const MUTED = "#475569";
const BORDER = "#e2e8f0";
const CODE_BACKGROUND = "#f1f5f9";
export const DEFAULT_LINK_COLOR = "#4338ca";

export const emailStyle = { font: FONT, text: TEXT, muted: MUTED, border: BORDER };

/** Each element's inline style; `a` takes the publication's accent. */
function styleOf(tagName: string, accent: string, inPre: boolean): string | undefined {
  switch (tagName) {
    case "p":
      return `margin:0 0 16px;font-family:${FONT};font-size:16px;line-height:1.6;color:${TEXT}`;
    case "h1":
    case "h2":
      return `margin:32px 0 12px;font-family:${FONT};font-size:22px;line-height:1.3;font-weight:700;color:${TEXT}`;
    case "h3":
      return `margin:28px 0 10px;font-family:${FONT};font-size:19px;line-height:1.3;font-weight:700;color:${TEXT}`;
    case "h4":
    case "h5":
    case "h6":
      return `margin:24px 0 8px;font-family:${FONT};font-size:16px;line-height:1.4;font-weight:700;color:${TEXT}`;
    case "a":
      return `color:${accent};text-decoration:underline`;
    case "ul":
    case "ol":
      return `margin:0 0 16px;padding-left:24px;font-family:${FONT};font-size:16px;line-height:1.6;color:${TEXT}`;
    case "li":
      return "margin:0 0 4px";
    case "blockquote":
      return `margin:0 0 16px;padding:0 0 0 16px;border-left:4px solid ${BORDER};color:${MUTED}`;
    case "pre":
      // pre-wrap: long lines wrap instead of widening the message past the screen (mail clients scroll no boxes).
      return `margin:0 0 16px;padding:12px 16px;background:${CODE_BACKGROUND};border:1px solid ${BORDER};border-radius:6px;font-family:${MONO};font-size:13px;line-height:1.5;color:${TEXT};white-space:pre-wrap;word-wrap:break-word;overflow-wrap:anywhere`;
    case "code":
      return inPre ? `font-family:${MONO};font-size:13px` : `padding:1px 4px;background:${CODE_BACKGROUND};border-radius:4px;font-family:${MONO};font-size:0.9em`;
    case "table":
      return `margin:0 0 16px;border-collapse:collapse;font-family:${FONT};font-size:15px;color:${TEXT}`;
    case "th":
      return `padding:6px 12px;border:1px solid ${BORDER};background:${CODE_BACKGROUND};text-align:left;font-weight:700`;
    case "td":
      return `padding:6px 12px;border:1px solid ${BORDER}`;
    case "hr":
      return `margin:24px 0;border:0;border-top:1px solid ${BORDER}`;
    case "img":
      return "display:block;max-width:100%;height:auto;border:0";
    case "del":
      return "text-decoration:line-through";
    case "sup":
      return "font-size:0.75em;line-height:0";
    case "section":
      return `margin-top:24px;font-size:14px;color:${MUTED}`;
    default:
      return undefined;
  }
}

/**
 * The file of our image an email shows: mail clients read no srcset, so one file, about twice the
 * column's width (sharp on high-density screens), in a format they show (AVIF's WebP variant); the
 * original while its variants are still to be made, or when it is no wider.
 */
export function emailImageUrl(image: ImageReference, origin: string): string {
  const width = variantWidths(image.width).filter((candidate) => candidate <= 2 * EMAIL_WIDTH + 200).at(-1);
  if (image.variantsPending || width === undefined) return origin + imagePath(image);
  const format: ImageFormat = image.format === "avif" ? "webp" : image.format;
  return origin + imagePath(image, variantFileName(width, format));
}

/** An absolute http(s) address of `value` read on `base`'s page; undefined for anything else. */
function absoluteUrl(value: unknown, base: string): string | undefined {
  if (typeof value !== "string" || !URL.canParse(value, base)) return undefined;
  const url = new URL(value, base);
  return url.protocol === "https:" || url.protocol === "http:" || url.protocol === "mailto:" ? url.href : undefined;
}

/** The one <img> a mail client shows for the rendered <img> (alone or in a <picture>). */
function emailImage(img: Element, context: Context): Element {
  const src = absoluteUrl(img.properties.src, context.postUrl);
  const own = src && new URL(src).origin === context.origin ? parseImagePath(new URL(src).pathname) : null;
  const url = own ? emailImageUrl({ ...own, variantsPending: context.imagesWithPendingVariants.includes(own.id) }, context.origin) : src;
  const width = typeof img.properties.width === "number" ? Math.min(img.properties.width, EMAIL_WIDTH) : undefined;
  return {
    type: "element",
    tagName: "img",
    properties: { src: url, alt: img.properties.alt ?? "", ...(width !== undefined && { width }), style: styleOf("img", context.accent, false) },
    children: [],
  };
}

interface Context {
  origin: string;
  postUrl: string;
  accent: string;
  imagesWithPendingVariants: readonly string[];
}

function restyle(node: ElementContent, context: Context, inPre: boolean): ElementContent[] {
  if (node.type !== "element") return [node];
  if (node.tagName === "picture") {
    const img = node.children.find((child): child is Element => child.type === "element" && child.tagName === "img");
    return img ? [emailImage(img, context)] : [];
  }
  if (node.tagName === "img") return [emailImage(node, context)];
  // A task's checkbox: mail clients drop form controls, so its state is written as a character.
  if (node.tagName === "input") return [{ type: "text", value: node.properties.checked ? "☑" : "☐" }];
  const properties: Element["properties"] = {};
  if (node.tagName === "a") {
    const href = absoluteUrl(node.properties.href, context.postUrl);
    if (href) properties.href = href;
  }
  if (node.tagName === "ol" && node.properties.start !== undefined) properties.start = node.properties.start;
  if ((node.tagName === "td" || node.tagName === "th") && node.properties.align !== undefined) properties.align = node.properties.align;
  if (node.tagName === "code" || node.tagName === "pre") properties.className = undefined;
  const style = styleOf(node.tagName, context.accent, inPre);
  if (style) properties.style = style;
  const nested = inPre || node.tagName === "pre";
  return [{ ...node, properties, children: node.children.flatMap((child) => restyle(child, context, nested)) }];
}

/**
 * The post's body for the email: `origin` is the publication's (our images are under it),
 * `postUrl` the post's page (relative links resolve against it), `accent` the links' colour.
 */
export function articleEmailHtml(content: string, context: Context): string {
  // No highlighting: its tokens are classes of the pages' stylesheet, which mail clients never get.
  const tree = markdownToHast(content, { origin: context.origin, absoluteImageUrls: true, imagesWithPendingVariants: context.imagesWithPendingVariants });
  const children = tree.children.flatMap((child: RootContent) => (child.type === "doctype" ? [] : restyle(child, context, false)));
  return toHtml({ type: "root", children } satisfies Root);
}
