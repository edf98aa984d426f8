import GithubSlugger from "github-slugger";
import { toString as textOf } from "hast-util-to-string";
import rehypeSanitize, { defaultSchema } from "rehype-sanitize";
import rehypeStringify from "rehype-stringify";
import remarkGfm from "remark-gfm";
import remarkParse from "remark-parse";
import remarkRehype from "remark-rehype";
import type { Element, ElementContent, Root, RootContent } from "hast";
import { unified } from "unified";
import type { VFile } from "vfile";
import { parseImagePath, type ImageReference } from "~/shared/images";
import { READER_COLUMN_SIZES, responsivePicture } from "~/shared/responsive-images";

export interface MarkdownOptions {
  /** The app's origin: absolute URLs under it name our images as their paths do (the server's configured or requested origin; the browser's page's). */
  origin?: string;
  /** Our images' URLs written absolute, under `origin` (feeds, read away from the site); else as the source writes them. */
  absoluteImageUrls?: boolean;
  /** Ids of our images whose variants are still to be made: offered with those that exist (docs/images.md, Serving). */
  imagesWithPendingVariants?: readonly string[];
  /**
   * A code block's text, and the language its fence names (none: undefined), as the tokens its
   * <code> should hold; null leaves it plain. The public pages' is Shiki's
   * (src/server/public-site/code-highlighting.ts); without one, code stays plain (the dashboard's
   * preview, feeds).
   */
  highlightCode?: (code: string, language: string | undefined) => ElementContent[] | null;
  /** h2–h4 get ids and links to themselves (the public pages'; a feed reader would show the bare links). */
  anchorHeadings?: boolean;
  /** The post's first image is its largest paint above the fold (no cover above it): fetched first, not lazily. */
  eagerFirstImage?: boolean;
}

declare module "vfile" {
  interface DataMap {
    markdownOptions: MarkdownOptions;
  }
}

/** The image of ours `src` names by its original (src/shared/images.ts), with the base its URLs get; null for any other URL. */
function ownImage(src: string, { origin, absoluteImageUrls }: MarkdownOptions): { image: ImageReference; base: string } | null {
  const appOrigin = origin && URL.canParse(origin) ? new URL(origin).origin : undefined;
  const path = parseImagePath(src);
  if (path) return { image: path, base: (absoluteImageUrls && appOrigin) || "" };
  if (!appOrigin || !URL.canParse(src)) return null;
  const url = new URL(src);
  const image = url.origin === appOrigin && url.search === "" && url.hash === "" ? parseImagePath(url.pathname) : null;
  return image && { image, base: appOrigin };
}

/**
 * Our images (docs/public-blog.md, Reading) as the browser should load them: a <picture> of their
 * variants, `sizes` the reader's column, and `width`/`height` so the page keeps their room while
 * they load. Every URL is built from the parsed id, size and format, never copied from the source.
 * Runs before the sanitizer, which allows exactly these elements and attributes.
 */
function responsiveImages() {
  const rewrite = (node: Element, options: MarkdownOptions): Element => {
    const own = typeof node.properties.src === "string" ? ownImage(node.properties.src, options) : null;
    if (!own) return node;
    const { sources, img } = responsivePicture({ ...own.image, variantsPending: options.imagesWithPendingVariants?.includes(own.image.id) }, own.base);
    const image: Element = { ...node, properties: { ...node.properties, ...img, ...(img.srcSet && { sizes: READER_COLUMN_SIZES }) } };
    if (sources.length === 0) return image;
    const sourceElements = sources.map((source): Element => ({ type: "element", tagName: "source", properties: { ...source, sizes: READER_COLUMN_SIZES }, children: [] }));
    return { type: "element", tagName: "picture", properties: {}, children: [...sourceElements, image] };
  };
  const visit = (parent: Root | Element, options: MarkdownOptions) => {
    parent.children.forEach((child, index) => {
      if (child.type !== "element") return;
      if (child.tagName === "img") parent.children[index] = rewrite(child, options);
      else visit(child, options);
    });
  };
  return (tree: Root, file: VFile) => visit(tree, file.data.markdownOptions ?? {});
}

/**
 * GitHub's schema (which already allows <picture>, <source srcset> and `width`/`height`), plus the
 * rest of what responsiveImages writes: `sizes` on both, <img> `srcset`, and a <source>'s `type`,
 * only that of a modern image format.
 */
const sanitizeSchema = {
  ...defaultSchema,
  clobberPrefix: "",
  attributes: {
    ...defaultSchema.attributes,
    img: [...(defaultSchema.attributes?.img ?? []), "srcSet", "sizes"],
    source: [...(defaultSchema.attributes?.source ?? []), "sizes", ["type", "image/avif", "image/webp"]],
  },
} satisfies typeof defaultSchema;

/** The text of `nodes`, leaving out nested lists (a task's own words, not its sub-tasks'). */
function ownText(nodes: ElementContent[]): string {
  return nodes
    .map((node) => (node.type === "text" ? node.value : node.type === "element" && node.tagName !== "ul" && node.tagName !== "ol" ? ownText(node.children) : ""))
    .join("");
}

/**
 * After sanitizing, what the reader's page needs: task lists' checkboxes named by their item's
 * text (WCAG 4.1.2: every form control has a name; GFM writes them bare), a text escaped like any
 * other attribute; images decoded off the main thread and loaded lazily, so a post's text shows
 * first, but for its first one when it is the page's largest paint (`eagerFirstImage`).
 */
function readerAttributes() {
  return (tree: Root, file: VFile) => {
    let eager = file.data.markdownOptions?.eagerFirstImage ?? false;
    const visit = (nodes: (Root | RootContent)[]) => {
      for (const node of nodes) {
        if (node.type !== "root" && node.type !== "element") continue;
        if (node.type === "element" && node.tagName === "img") {
          Object.assign(node.properties, eager ? { fetchPriority: "high", loading: "eager", decoding: "async" } : { loading: "lazy", decoding: "async" });
          eager = false;
        }
        if (node.type === "element" && node.tagName === "li") {
          const checkbox = node.children.find((child) => child.type === "element" && child.tagName === "input");
          if (checkbox?.type === "element") checkbox.properties.ariaLabel = ownText(node.children).trim().slice(0, 200) || "Task";
        }
        visit(node.children);
      }
    };
    visit([tree]);
  };
}

const HEADINGS_WITH_ANCHORS = new Set(["h2", "h3", "h4"]);

/** Every element of `parent`, depth first. */
function* elementsOf(parent: Root | Element): Generator<Element> {
  for (const child of parent.children) {
    if (child.type !== "element") continue;
    yield child;
    yield* elementsOf(child);
  }
}

/**
 * Each h2–h4 of the post (docs/public-blog.md, Reading) gets an id, the slug of its text as GitHub
 * makes them, numbered when repeated and never one the post already has (the footnotes'), and a
 * link to itself that shows on hover and focus: a section's address without any script.
 */
function headingAnchors() {
  return (tree: Root, file: VFile) => {
    if (!file.data.markdownOptions?.anchorHeadings) return;
    const slugger = new GithubSlugger();
    const elements = [...elementsOf(tree)];
    for (const element of elements) if (typeof element.properties.id === "string") slugger.slug(element.properties.id);
    for (const heading of elements) {
      if (!HEADINGS_WITH_ANCHORS.has(heading.tagName) || heading.properties.id !== undefined) continue;
      const text = textOf(heading).trim();
      const id = slugger.slug(text) || slugger.slug("section");
      heading.properties.id = id;
      heading.children.push({
        type: "element",
        tagName: "a",
        properties: { className: ["heading-anchor"], href: `#${id}`, ariaLabel: `Link to section ${text.slice(0, 200)}`.trim() },
        children: [{ type: "text", value: "#" }],
      });
    }
  };
}

/**
 * Code blocks' tokens from the caller's highlighter (MarkdownOptions.highlightCode), after
 * sanitizing: what it adds is ours (spans and their classes), the code itself stays text, escaped
 * when written. The language is the one the sanitizer kept, `language-*` on the <code>.
 */
function highlightedCode() {
  return (tree: Root, file: VFile) => {
    const highlight = file.data.markdownOptions?.highlightCode;
    if (!highlight) return;
    for (const pre of elementsOf(tree)) {
      const code = pre.tagName === "pre" && pre.children.length === 1 ? pre.children[0] : undefined;
      if (code?.type !== "element" || code.tagName !== "code") continue;
      const classes = Array.isArray(code.properties.className) ? code.properties.className : [];
      const language = classes.map(String).find((name) => name.startsWith("language-"))?.slice("language-".length);
      const text = textOf(code);
      const tokens = highlight(text.replace(/\n$/, ""), language);
      if (tokens) code.children = text.endsWith("\n") ? [...tokens, { type: "text", value: "\n" }] : tokens;
    }
  };
}

/**
 * Markdown (GitHub-flavoured: tables, strikethrough, task lists, footnotes) to HTML, safely: raw
 * HTML in the source is dropped (remark-rehype without allowDangerousHtml), and the result is
 * sanitized with GitHub's schema (no scripts, event handlers, styles or javascript: URLs). The
 * only ids it keeps are the footnotes', which remark-rehype already prefixes with "user-content-", so the
 * sanitizer does not prefix them a second time (that would break the footnote links). Our images
 * get their variants; task lists' checkboxes get their item's text as their name; images load lazily;
 * h2–h4 get ids and links to themselves, and code is highlighted, when the caller asks.
 */
const markdownProcessor = unified()
  .use(remarkParse)
  .use(remarkGfm)
  .use(remarkRehype)
  .use(responsiveImages)
  .use(rehypeSanitize, sanitizeSchema)
  .use(readerAttributes)
  .use(headingAnchors)
  .use(highlightedCode)
  .use(rehypeStringify)
  .freeze();

export function markdownToHtml(source: string, options: MarkdownOptions = {}): string {
  return String(markdownProcessor.processSync({ value: source, data: { markdownOptions: options } }));
}

/** The same, as the HTML tree before it is written: for output that restyles it (the newsletter's email, src/server/newsletters/article-email.ts). */
export function markdownToHast(source: string, options: MarkdownOptions = {}): Root {
  const file = { value: source, data: { markdownOptions: options } };
  return markdownProcessor.runSync(markdownProcessor.parse(file), file) as Root;
}
