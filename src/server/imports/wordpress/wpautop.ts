import "server-only";

/**
 * WordPress stores classic-editor posts without paragraphs: its themes add them when showing the
 * post (the `wpautop` filter), a blank line making a paragraph and a single newline a line break,
 * never inside <pre> nor around block elements. This is that filter's rules, in order, so that a
 * post reads here as it did there (docs/migrating.md, What maps to what). Posts written with the
 * block editor are not run through it (WordPress does not either: their markup is complete).
 */

const ALL_BLOCKS =
  "(?:table|thead|tfoot|caption|col|colgroup|tbody|tr|td|th|div|dl|dd|dt|ul|ol|li|pre|form|map|area|blockquote|address|style|p|h[1-6]|hr|fieldset|legend|section|article|aside|hgroup|header|footer|nav|figure|figcaption|details|menu|summary)";
/** Stands for a newline inside a tag while paragraphs are made (control characters never reach here: wxr-stream.ts drops them). */
const NEWLINE_IN_TAG = "\u0000wpnl\u0000";
const PRESERVED_NEWLINE = "\u0000wppn\u0000";

export function wpautop(input: string): string {
  if (input.trim() === "") return "";
  let text = `${input}\n`;

  const preBlocks: string[] = [];
  text = text.replace(/<pre[\s>][\s\S]*?<\/pre>/gi, (pre) => `<pre wp-pre-tag-${preBlocks.push(pre) - 1}></pre>`);

  text = text.replace(/<br\s*\/?>\s*<br\s*\/?>/gi, "\n\n");
  text = text.replace(new RegExp(`(<${ALL_BLOCKS}[\\s/>])`, "gi"), "\n\n$1");
  text = text.replace(new RegExp(`(</${ALL_BLOCKS}>)`, "gi"), "$1\n\n");
  text = text.replace(/(<hr\s*?\/?>)/gi, "$1\n\n");
  text = text.replace(/\r\n?/g, "\n");
  text = text.replace(/<[^>]*>/g, (tag) => tag.replace(/\n/g, NEWLINE_IN_TAG));
  if (text.includes("<figcaption")) {
    text = text.replace(/\s*(<figcaption[^>]*>)/gi, "$1").replace(/<\/figcaption>\s*/gi, "</figcaption>");
  }
  text = text.replace(/\n\n+/g, "\n\n");

  text = text
    .split(/\n\s*\n/)
    .filter((part) => part !== "")
    .map((part) => `<p>${part.replace(/^\n+|\n+$/g, "")}</p>\n`)
    .join("");
  text = text.replace(/<p>\s*<\/p>/g, "");
  text = text.replace(/<p>([^<]+)<\/(div|address|form)>/gi, "<p>$1</p></$2>");
  text = text.replace(new RegExp(`<p>\\s*(</?${ALL_BLOCKS}[^>]*>)\\s*</p>`, "gi"), "$1");
  text = text.replace(/<p>(<li.+?)<\/p>/gi, "$1");
  text = text.replace(/<p><blockquote([^>]*)>/gi, "<blockquote$1><p>");
  text = text.replace(/<\/blockquote><\/p>/gi, "</p></blockquote>");
  text = text.replace(new RegExp(`<p>\\s*(</?${ALL_BLOCKS}[^>]*>)`, "gi"), "$1");
  text = text.replace(new RegExp(`(</?${ALL_BLOCKS}[^>]*>)\\s*</p>`, "gi"), "$1");

  text = text.replace(/<(script|style|svg|math)[\s\S]*?<\/\1>/gi, (element) => element.replace(/\n/g, PRESERVED_NEWLINE));
  text = text.replace(/<br\s*\/?>/gi, "<br />");
  text = text.replace(/(?<!<br \/>)\s*\n/g, "<br />\n");
  text = text.replaceAll(PRESERVED_NEWLINE, "\n");

  text = text.replace(new RegExp(`(</?${ALL_BLOCKS}[^>]*>)\\s*<br />`, "gi"), "$1");
  text = text.replace(/<br \/>(\s*<\/?(?:p|li|div|dl|dd|dt|th|pre|td|ul|ol)[^>]*>)/gi, "$1");
  text = text.replace(/\n<\/p>$/, "</p>");

  text = text.replace(/<pre wp-pre-tag-(\d+)><\/pre>/g, (_, index: string) => preBlocks[Number(index)] ?? "");
  return text.replaceAll(NEWLINE_IN_TAG, "\n");
}
