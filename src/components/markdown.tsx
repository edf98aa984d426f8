import { markdownToHtml } from "~/lib/markdown";

/**
 * Markdown rendered safely (see markdownToHtml): the dashboard's preview shows what the public page
 * will, our images under the page's origin too.
 */
export function Markdown({ children }: { children: string }) {
  const origin = typeof window === "undefined" ? undefined : window.location.origin;
  return <div className="markdown" dangerouslySetInnerHTML={{ __html: markdownToHtml(children, { origin }) }} />;
}
