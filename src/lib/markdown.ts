import rehypeSanitize, { defaultSchema } from "rehype-sanitize";
import rehypeStringify from "rehype-stringify";
import remarkGfm from "remark-gfm";
import remarkParse from "remark-parse";
import remarkRehype from "remark-rehype";
import { unified } from "unified";

/**
 * Markdown (GitHub-flavoured: tables, strikethrough, task lists, footnotes) to HTML, safely: raw
 * HTML in the source is dropped (remark-rehype without allowDangerousHtml), and the result is
 * sanitized with GitHub's schema (no scripts, event handlers, styles or javascript: URLs). The
 * only ids are the footnotes', which remark-rehype already prefixes with "user-content-", so the
 * sanitizer does not prefix them a second time (that would break the footnote links).
 */
const markdownProcessor = unified()
  .use(remarkParse)
  .use(remarkGfm)
  .use(remarkRehype)
  .use(rehypeSanitize, { ...defaultSchema, clobberPrefix: "" })
  .use(rehypeStringify)
  .freeze();

export function markdownToHtml(source: string): string {
  return String(markdownProcessor.processSync(source));
}
