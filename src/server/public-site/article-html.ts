import "server-only";
import { markdownToHtml, type MarkdownOptions } from "~/lib/markdown";
import { highlightCode } from "./code-highlighting";

/**
 * A post's Markdown as its page (and its preview) shows it (docs/public-blog.md, Reading): the
 * renderer's HTML with code highlighted and headings anchored; its first image fetched first when no cover is above it.
 */
export function articleHtml(content: string, options: Pick<MarkdownOptions, "origin" | "imagesWithPendingVariants"> & { hasCover?: boolean }): string {
  const { hasCover = false, ...rest } = options;
  return markdownToHtml(content, { ...rest, highlightCode, anchorHeadings: true, eagerFirstImage: !hasCover });
}
