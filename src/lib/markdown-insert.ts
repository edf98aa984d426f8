/**
 * Puts `block` (an image, a code block) in place of `text`'s selection from `start` to `end`, as a
 * paragraph of its own: a blank line before it unless it starts the text, and after it unless it
 * ends it, so it never glues onto the line it was dropped into (`![…](…)# Heading` would render the
 * heading as text). Returns the new text and the caret, right after the block.
 */
export function insertBlock(text: string, start: number, end: number, block: string): { text: string; caret: number } {
  const before = text.slice(0, Math.min(start, text.length));
  const after = text.slice(Math.min(Math.max(end, start), text.length));
  const lead = before === "" ? "" : "\n".repeat(Math.max(0, 2 - trailingNewlines(before)));
  const trail = after === "" ? "" : "\n".repeat(Math.max(0, 2 - leadingNewlines(after)));
  const inserted = lead + block + trail;
  return { text: before + inserted + after, caret: before.length + lead.length + block.length };
}

const trailingNewlines = (text: string) => text.length - text.replace(/\n+$/, "").length;
const leadingNewlines = (text: string) => text.length - text.replace(/^\n+/, "").length;
