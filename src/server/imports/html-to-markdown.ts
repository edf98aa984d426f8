import "server-only";
import type { Element, ElementContent } from "hast";
import type { Handle, State } from "hast-util-to-mdast";
import type { FootnoteDefinition, FootnoteReference, Link, Paragraph, PhrasingContent, RootContent } from "mdast";
import rehypeParse from "rehype-parse";
import rehypeRemark from "rehype-remark";
import remarkGfm from "remark-gfm";
import remarkStringify from "remark-stringify";
import { unified } from "unified";

/**
 * A post's HTML as our Markdown (docs/migrating.md, What maps to what), with the unified tools the
 * public pages render it back with: headings, emphasis, lists, links, images, quotes, code blocks
 * (their language kept), tables and strikethrough (GFM). What Markdown cannot hold is kept as a
 * link rather than dropped, and said in `notes` for the report: an embedded frame (a video, a
 * tweet) becomes a link to its source. Scripts, styles and forms go (nothing a reader saw).
 * Platform specifics (WordPress shortcodes and captions, Ghost cards) are turned into plain HTML
 * by their readers before this.
 */
export interface ConvertedHtml {
  markdown: string;
  notes: string[];
}

export function htmlToMarkdown(html: string): ConvertedHtml {
  const notes: string[] = [];
  const embed =
    (what: string): Handle =>
    (state: State, node: Element) => {
      const source = String(node.properties?.src ?? node.properties?.data ?? "");
      if (!/^https?:\/\//i.test(source)) {
        notes.push(`an embedded ${what} without a web address was left out`);
        return undefined;
      }
      const title = String(node.properties?.title ?? "") || `Embedded ${what}: ${new URL(source).host}`;
      notes.push(`an embedded ${what} (${source}) is kept as a link`);
      const link: Link = { type: "link", url: state.resolve(source), title: null, children: [{ type: "text", value: title }] };
      const paragraph: Paragraph = { type: "paragraph", children: [link] };
      state.patch(node, paragraph);
      return paragraph;
    };
  const file = unified()
    .use(rehypeParse, { fragment: true })
    .use(rehypeRemark, {
      // HTML comments are for the editor that wrote them (WordPress's <!--more-->), never shown to readers.
      nodeHandlers: { comment: () => undefined },
      handlers: {
        iframe: embed("frame"),
        embed: embed("object"),
        object: embed("object"),
        script: () => undefined,
        style: () => undefined,
        form: () => undefined,
        figcaption,
        sup: footnoteReference,
        section: footnotesSection,
      },
    })
    .use(remarkGfm)
    .use(remarkStringify, { bullet: "-", emphasis: "_", fences: true, rule: "-" })
    .processSync(html);
  return { markdown: String(file).trim(), notes };
}

/** A figure's caption: an italic line under its image (Markdown has no captions). */
function figcaption(state: State, node: Element): Paragraph {
  // Emphasis inside the caption is the caption's own already (`<i><em>dawn</em></i>` would come out `*_dawn_*`).
  const unwrap = (child: RootContent): RootContent[] => (child.type === "paragraph" || child.type === "emphasis" ? child.children.flatMap(unwrap) : [child]);
  const children = state.all(node).flatMap(unwrap);
  const paragraph: Paragraph = { type: "paragraph", children: [{ type: "emphasis", children: children as PhrasingContent[] }] };
  state.patch(node, paragraph);
  return paragraph;
}

/** A footnote's label from the id the HTML gives it (our own pages prefix ids with "user-content-"). */
const footnoteLabel = (id: string) => id.replace(/^#/, "").replace(/^user-content-/, "");

/** GFM footnotes as rendered HTML (our pages', and what readers turn theirs into): `<sup><a data-footnote-ref href="#fn-1">`. */
function footnoteReference(state: State, node: Element): FootnoteReference | RootContent[] {
  const [link, ...rest] = node.children.filter((child) => child.type !== "text" || child.value.trim() !== "");
  if (rest.length > 0 || link?.type !== "element" || link.tagName !== "a" || link.properties?.dataFootnoteRef === undefined) return state.all(node);
  const label = footnoteLabel(String(link.properties.href ?? ""));
  const reference: FootnoteReference = { type: "footnoteReference", identifier: label.toLowerCase(), label };
  state.patch(node, reference);
  return reference;
}

/** Their notes: `<section data-footnotes><ol><li id="fn-1">…<a data-footnote-backref>`, as Markdown footnote definitions. */
function footnotesSection(state: State, node: Element): RootContent[] {
  if (node.properties?.dataFootnotes === undefined) return state.toFlow(state.all(node));
  const items = node.children.flatMap((child) => (child.type === "element" && child.tagName === "ol" ? child.children : []));
  return items.flatMap((item): FootnoteDefinition[] => {
    if (item.type !== "element" || item.tagName !== "li") return [];
    const label = footnoteLabel(String(item.properties?.id ?? ""));
    if (!label) return [];
    const content: Element = { ...item, tagName: "div", children: withoutBackReferences(item.children) };
    const definition: FootnoteDefinition = { type: "footnoteDefinition", identifier: label.toLowerCase(), label, children: state.toFlow(state.all(content)) as FootnoteDefinition["children"] };
    state.patch(item, definition);
    return [definition];
  });
}

/** A note's "↩" link back to its reference: Markdown footnotes make their own. */
function withoutBackReferences(children: ElementContent[]): ElementContent[] {
  return children.flatMap((child): ElementContent[] => {
    if (child.type !== "element") return [child];
    if (child.properties?.dataFootnoteBackref !== undefined) return [];
    return [{ ...child, children: withoutBackReferences(child.children) }];
  });
}
