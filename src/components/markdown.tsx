import ReactMarkdown from "react-markdown";

/**
 * Markdown rendered safely: raw HTML in the source is not rendered (react-markdown without
 * rehype-raw) and unsafe link protocols (javascript: …) are dropped by its URL transform.
 */
export function Markdown({ children }: { children: string }) {
  return (
    <div className="markdown">
      <ReactMarkdown skipHtml>{children}</ReactMarkdown>
    </div>
  );
}
