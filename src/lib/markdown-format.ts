/**
 * The Markdown editor's formatting commands as pure text edits: each takes the text and its
 * selection (`from` ≤ `to`) and answers one replacement and the selection after it, so the editor
 * applies it as one undoable change and the tests need no browser.
 */
export interface MarkdownEdit {
  from: number;
  to: number;
  insert: string;
  /** The selection after the edit, in the edited text. */
  selection: { from: number; to: number };
}

export type InlineMark = "bold" | "italic" | "code";
export type LineBlock = "bullet" | "numbered" | "quote";

// `_` for italic, so that toggling it never eats half of a bold's `**`.
const MARKERS: Record<InlineMark, string> = { bold: "**", italic: "_", code: "`" };

/** The start and end of the lines `from` to `to` touch. */
function lineSpan(text: string, from: number, to: number): { start: number; end: number } {
  const start = text.lastIndexOf("\n", from - 1) + 1;
  const newline = text.indexOf("\n", to);
  return { start, end: newline === -1 ? text.length : newline };
}

/**
 * Bold, italic or inline code around the selection, or off when the selection is already wrapped
 * (its markers inside or just outside it). Spaces at the selection's edges stay outside the markers
 * (`** word**` is not bold). No selection: a pair of markers with the caret between, or the empty
 * pair the caret sits in taken away.
 */
export function toggleInline(text: string, from: number, to: number, mark: InlineMark): MarkdownEdit {
  const marker = MARKERS[mark];
  const selected = text.slice(from, to);
  const start = from + (selected.length - selected.trimStart().length);
  const end = Math.max(start, to - (selected.length - selected.trimEnd().length));
  const inner = text.slice(start, end);
  const n = marker.length;
  if (inner.length >= 2 * n && inner.startsWith(marker) && inner.endsWith(marker)) {
    const unwrapped = inner.slice(n, -n);
    return { from: start, to: end, insert: unwrapped, selection: { from: start, to: start + unwrapped.length } };
  }
  if (text.slice(start - n, start) === marker && text.slice(end, end + n) === marker) {
    return { from: start - n, to: end + n, insert: inner, selection: { from: start - n, to: end - n } };
  }
  return { from: start, to: end, insert: marker + inner + marker, selection: { from: start + n, to: end + n } };
}

const HEADING = /^(#{1,6}) +/;

/**
 * The lines of the selection as headings of `level` (2 or 3: the title is the page's h1), or as
 * paragraphs again when the first already is one of that level. "cycle": a paragraph becomes a
 * level 2 heading, level 2 becomes 3, and 3 a paragraph again.
 */
export function toggleHeading(text: string, from: number, to: number, level: 2 | 3 | "cycle"): MarkdownEdit {
  const { start, end } = lineSpan(text, from, to);
  const lines = text.slice(start, end).split("\n");
  const current = HEADING.exec(lines[0]!)?.[1]!.length ?? 0;
  const target = level === "cycle" ? ({ 2: 3, 3: 0 }[current] ?? 2) : current === level ? 0 : level;
  const prefix = target === 0 ? "" : `${"#".repeat(target)} `;
  return replaceLines(text, from, to, start, lines, (line) => (line.trim() === "" ? line : prefix + line.replace(HEADING, "")));
}

const LINE_MARKS: Record<LineBlock, RegExp> = { bullet: /^(\s*)[-*+] +/, numbered: /^(\s*)\d+[.)] +/, quote: /^(\s*)> ?/ };
const ANY_LIST = /^(\s*)(?:[-*+]|\d+[.)]) +/;

/**
 * The selection's lines as a bulleted list, a numbered list (1., 2., …) or a quote; or back to
 * plain lines when every line that has text already is one. A list replaces the other kind of list.
 */
export function toggleLines(text: string, from: number, to: number, block: LineBlock): MarkdownEdit {
  const { start, end } = lineSpan(text, from, to);
  const lines = text.slice(start, end).split("\n");
  const filled = lines.filter((line) => line.trim() !== "");
  const mark = LINE_MARKS[block];
  if (filled.length > 0 && filled.every((line) => mark.test(line))) {
    return replaceLines(text, from, to, start, lines, (line) => line.replace(mark, "$1"));
  }
  let number = 0;
  return replaceLines(text, from, to, start, lines, (line) => {
    if (line.trim() === "" && filled.length > 0) return line;
    if (block === "quote") return `> ${line}`;
    const bullet = block === "bullet" ? "- " : `${++number}. `;
    return line.replace(ANY_LIST, "$1").replace(/^(\s*)/, `$1${bullet}`);
  });
}

/** `lines` (the text's lines from `start`) each changed by `change`; the selection keeps to the same words. */
function replaceLines(text: string, from: number, to: number, start: number, lines: string[], change: (line: string) => string): MarkdownEdit {
  const changed = lines.map(change);
  const insert = changed.join("\n");
  const end = start + lines.join("\n").length;
  // Lines change only at their start (a marker added, swapped or taken away): a position keeps its
  // place among the words after the marker, or goes right after the new marker if it was in the old.
  const moved = (position: number) => {
    let lineStart = start;
    let newLineStart = start;
    for (const [index, line] of lines.entries()) {
      const now = changed[index]!;
      if (position <= lineStart + line.length || index === lines.length - 1) {
        const words = wordsLength(line, now);
        const column = position - lineStart;
        const oldMarker = line.length - words;
        const newMarker = now.length - words;
        return newLineStart + (column < oldMarker || column === 0 ? newMarker : column - oldMarker + newMarker);
      }
      lineStart += line.length + 1;
      newLineStart += now.length + 1;
    }
    return newLineStart;
  };
  return { from: start, to: end, insert, selection: { from: moved(from), to: moved(to) } };
}

/** The length of what two versions of a line end with alike, from its first non-space character. */
function wordsLength(line: string, now: string): number {
  let same = 0;
  while (same < Math.min(line.length, now.length) && line[line.length - 1 - same] === now[now.length - 1 - same]) same++;
  const tail = line.slice(line.length - same);
  return tail.trimStart().length;
}

const LINK = /^\[([^\]]*)\]\(([^)]*)\)$/;

/**
 * The selection as a link's text, `url` selected to be typed over; a selected address becomes the
 * link's target instead, the caret in its empty text; a selected link becomes its text again.
 */
export function toggleLink(text: string, from: number, to: number): MarkdownEdit {
  const selected = text.slice(from, to);
  const link = LINK.exec(selected);
  if (link) return { from, to, insert: link[1]!, selection: { from, to: from + link[1]!.length } };
  if (/^https?:\/\/\S+$/.test(selected)) return { from, to, insert: `[](${selected})`, selection: { from: from + 1, to: from + 1 } };
  const urlAt = from + selected.length + 3;
  return { from, to, insert: `[${selected}](url)`, selection: { from: urlAt, to: urlAt + 3 } };
}

const FENCE = "```";

/**
 * Code: inline (backticks) for a selection within a line; a fenced block for a selection over
 * several lines or a caret on an empty line, or the fences taken away when the lines already sit
 * between them.
 */
export function toggleCode(text: string, from: number, to: number): MarkdownEdit {
  const { start, end } = lineSpan(text, from, to);
  const multiline = text.slice(from, to).includes("\n");
  const emptyLine = from === to && text.slice(start, end).trim() === "";
  if (!multiline && !emptyLine) return toggleInline(text, from, to, "code");
  const before = text.lastIndexOf("\n", start - 2) + 1;
  const fencedAbove = start > 0 && text.slice(before, start - 1).startsWith(FENCE);
  const afterEnd = text.indexOf("\n", end + 1);
  const fencedBelow = end < text.length && text.slice(end + 1, afterEnd === -1 ? text.length : afterEnd).trim() === FENCE;
  if (fencedAbove && fencedBelow) {
    const inner = text.slice(start, end);
    const removedBefore = start - before;
    return { from: before, to: afterEnd === -1 ? text.length : afterEnd, insert: inner, selection: { from: from - removedBefore, to: to - removedBefore } };
  }
  const body = text.slice(start, end);
  const insert = `${FENCE}\n${body}\n${FENCE}`;
  const shift = FENCE.length + 1;
  return { from: start, to: end, insert, selection: { from: from + shift, to: to + shift } };
}

/**
 * Puts `block` (an image) in place of `text`'s selection from `start` to `end`, as a paragraph of
 * its own: a blank line before it unless it starts the text, and after it unless it ends it, so it
 * never glues onto the line it was dropped into (`![…](…)# Heading` would render the heading as
 * text). Positions past the end (the text shrank meanwhile) are taken as its end. The caret goes
 * right after the block.
 */
export function insertBlock(text: string, start: number, end: number, block: string): MarkdownEdit {
  const from = Math.min(start, text.length);
  const to = Math.min(Math.max(end, start), text.length);
  const before = text.slice(0, from);
  const after = text.slice(to);
  const lead = before === "" ? "" : "\n".repeat(Math.max(0, 2 - trailingNewlines(before)));
  const trail = after === "" ? "" : "\n".repeat(Math.max(0, 2 - leadingNewlines(after)));
  const caret = from + lead.length + block.length;
  return { from, to, insert: lead + block + trail, selection: { from: caret, to: caret } };
}

const trailingNewlines = (text: string) => text.length - text.replace(/\n+$/, "").length;
const leadingNewlines = (text: string) => text.length - text.replace(/^\n+/, "").length;

const LIST_ITEM = /^(\s*)(?:[-*+]|(\d+)([.)])) +/;
const QUOTE_MARK = /^(?:> ?)+/;

/**
 * Enter at `pos` in a list item or a quote: the new line starts the same way (a numbered item with
 * the next number). In an empty item the marker goes instead, ending the list or the quote. Null
 * where Enter is a plain new line (elsewhere, or with the caret inside the marker).
 */
export function continueMarkup(text: string, pos: number): MarkdownEdit | null {
  const { start, end } = lineSpan(text, pos, pos);
  const line = text.slice(start, end);
  const item = LIST_ITEM.exec(line);
  const marker = item?.[0] ?? QUOTE_MARK.exec(line)?.[0];
  if (marker === undefined || pos - start < marker.length) return null;
  if (line.trim() === marker.trim()) return { from: start, to: end, insert: "", selection: { from: start, to: start } };
  const next = item?.[2] ? `${item[1]}${Number(item[2]) + 1}${item[3]} ` : marker;
  const caret = pos + 1 + next.length;
  return { from: pos, to: pos, insert: `\n${next}`, selection: { from: caret, to: caret } };
}
