import { HighlightStyle, syntaxHighlighting } from "@codemirror/language";
import { EditorView } from "@codemirror/view";
import { tags } from "@lezer/highlight";

/**
 * A writing surface rather than a code editor: the page's proportional font, roomy lines, headings
 * larger, code in monospace. Colours are the Tailwind palette's variables, so the editor follows
 * the dashboard's colour scheme wherever it redefines them.
 */
const writingTheme = EditorView.theme({
  "&": { height: "100%", color: "var(--color-slate-900)", backgroundColor: "var(--color-white)", fontSize: "1rem" },
  "&.cm-focused": { outline: "none" },
  ".cm-scroller": { fontFamily: "var(--font-sans)", lineHeight: "1.75", overflowX: "hidden" },
  ".cm-content": { padding: "0.75rem 0", caretColor: "var(--color-slate-900)" },
  ".cm-line": { padding: "0 1rem" },
  ".cm-cursor, .cm-dropCursor": { borderLeftColor: "var(--color-slate-900)" },
  ".cm-placeholder": { color: "var(--color-slate-500)", fontStyle: "normal" },
});

/** Marks (`#`, `**`, `>`, list bullets) stay readable but quieter than the words (slate-500 keeps AA contrast). */
const markdownHighlight = HighlightStyle.define([
  { tag: tags.heading1, fontSize: "1.5em", fontWeight: "700", lineHeight: "1.4" },
  { tag: tags.heading2, fontSize: "1.3em", fontWeight: "700", lineHeight: "1.4" },
  { tag: tags.heading3, fontSize: "1.15em", fontWeight: "700" },
  { tag: [tags.heading4, tags.heading5, tags.heading6], fontWeight: "700" },
  { tag: tags.strong, fontWeight: "700" },
  { tag: tags.emphasis, fontStyle: "italic" },
  { tag: tags.strikethrough, textDecoration: "line-through" },
  { tag: tags.monospace, fontFamily: "var(--font-mono)", fontSize: "0.9em", color: "var(--color-slate-800)" },
  { tag: [tags.link, tags.url], color: "var(--color-indigo-700)" },
  { tag: tags.url, textDecoration: "underline" },
  { tag: tags.quote, color: "var(--color-slate-700)", fontStyle: "italic" },
  { tag: [tags.processingInstruction, tags.labelName, tags.contentSeparator, tags.comment], color: "var(--color-slate-500)" },
]);

export const editorTheme = [writingTheme, syntaxHighlighting(markdownHighlight)];
