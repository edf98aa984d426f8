import "server-only";

/**
 * The images a post's Markdown shows: `![alt](url "title")` and HTML `<img src="url">` (kept by
 * the HTML converter, or written so). The importer brings each in and rewrites its URL
 * (docs/migrating.md, How an import runs).
 */
const MARKDOWN_IMAGE = /(!\[(?:[^\]\\]|\\.)*\]\(\s*)(<[^>\n]+>|[^\s)]+)((?:\s+(?:"[^"\n]*"|'[^'\n]*'|\([^)\n]*\)))?\s*\))/g;
const HTML_IMAGE = /(<img\b[^>]*?\ssrc\s*=\s*)("[^"]*"|'[^']*'|[^\s>]+)/gi;

const unwrap = (url: string) => (/^<.*>$/.test(url) || /^(".*"|'.*')$/.test(url) ? url.slice(1, -1) : url);

export function markdownImageUrls(markdown: string): string[] {
  const urls = new Set<string>();
  for (const match of markdown.matchAll(MARKDOWN_IMAGE)) urls.add(unwrap(match[2]!));
  for (const match of markdown.matchAll(HTML_IMAGE)) urls.add(unwrap(match[2]!));
  urls.delete("");
  return [...urls];
}

/** The Markdown with each image URL replaced by `replace(url)` (the same URL: left as written). */
export function replaceImageUrls(markdown: string, replace: (url: string) => string): string {
  return markdown
    .replace(MARKDOWN_IMAGE, (whole, start: string, url: string, end: string) => {
      const next = replace(unwrap(url));
      return next === unwrap(url) ? whole : `${start}${/[\s()<>]/.test(next) ? `<${next}>` : next}${end}`;
    })
    .replace(HTML_IMAGE, (whole, start: string, url: string) => {
      const next = replace(unwrap(url));
      return next === unwrap(url) ? whole : `${start}"${next.replace(/"/g, "&quot;")}"`;
    });
}
