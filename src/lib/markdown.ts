import rehypeSanitize, { defaultSchema } from "rehype-sanitize";
import rehypeStringify from "rehype-stringify";
import remarkGfm from "remark-gfm";
import remarkParse from "remark-parse";
import remarkRehype from "remark-rehype";
import type { ElementContent, Root, RootContent } from "hast";
import { unified } from "unified";

/** The text of `nodes`, leaving out nested lists (a task's own words, not its sub-tasks'). */
function ownText(nodes: ElementContent[]): string {
  return nodes
    .map((node) => (node.type === "text" ? node.value : node.type === "element" && node.tagName !== "ul" && node.tagName !== "ol" ? ownText(node.children) : ""))
    .join("");
}

/**
 * After sanitizing, what the reader's page needs: task lists' checkboxes named by their item's
 * text (WCAG 4.1.2: every form control has a name; GFM writes them bare), a text escaped like any
 * other attribute; images loaded lazily, off the main thread, so a post's text shows first.
 */
function readerAttributes() {
  const visit = (nodes: (Root | RootContent)[]) => {
    for (const node of nodes) {
      if (node.type !== "root" && node.type !== "element") continue;
      if (node.type === "element" && node.tagName === "img") Object.assign(node.properties, { loading: "lazy", decoding: "async" });
      if (node.type === "element" && node.tagName === "li") {
        const checkbox = node.children.find((child) => child.type === "element" && child.tagName === "input");
        if (checkbox?.type === "element") checkbox.properties.ariaLabel = ownText(node.children).trim().slice(0, 200) || "Task";
      }
      visit(node.children);
    }
  };
  return (tree: Root) => visit([tree]);
}

/**
 * Markdown (GitHub-flavoured: tables, strikethrough, task lists, footnotes) to HTML, safely: raw
 * HTML in the source is dropped (remark-rehype without allowDangerousHtml), and the result is
 * sanitized with GitHub's schema (no scripts, event handlers, styles or javascript: URLs). The
 * only ids are the footnotes', which remark-rehype already prefixes with "user-content-", so the
 * sanitizer does not prefix them a second time (that would break the footnote links). Task lists'
 * checkboxes get their item's text as their name; images load lazily.
 */
const markdownProcessor = unified()
  .use(remarkParse)
  .use(remarkGfm)
  .use(remarkRehype)
  .use(rehypeSanitize, { ...defaultSchema, clobberPrefix: "" })
  .use(readerAttributes)
  .use(rehypeStringify)
  .freeze();

export function markdownToHtml(source: string): string {
  return String(markdownProcessor.processSync(source));
}
