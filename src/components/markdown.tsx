import { markdownToHtml } from "~/lib/markdown";

/** Markdown rendered safely (see markdownToHtml): the dashboard's preview shows what the public page will. */
export function Markdown({ children }: { children: string }) {
  return <div className="markdown" dangerouslySetInnerHTML={{ __html: markdownToHtml(children) }} />;
}
