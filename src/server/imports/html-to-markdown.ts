import "server-only";
import type { Element } from "hast";
import type { Handle, State } from "hast-util-to-mdast";
import type { Link, Paragraph } from "mdast";
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
      handlers: { iframe: embed("frame"), embed: embed("object"), object: embed("object"), script: () => undefined, style: () => undefined, form: () => undefined },
    })
    .use(remarkGfm)
    .use(remarkStringify, { bullet: "-", emphasis: "_", fences: true, rule: "-" })
    .processSync(html);
  return { markdown: String(file).trim(), notes };
}
