import { markdownToHtml } from "~/lib/markdown";

/** Markdown rendered safely (see markdownToHtml): the dashboard's preview shows what the public page will. */
export function Markdown({ children }: { children: string }) {
  return <RenderedMarkdown html={markdownToHtml(children)} />;
}

/** HTML made by markdownToHtml, and only that (the public pages cache it). */
export function RenderedMarkdown({ html }: { html: string }) {
  return <div className="markdown" dangerouslySetInnerHTML={{ __html: html }} />;
}
