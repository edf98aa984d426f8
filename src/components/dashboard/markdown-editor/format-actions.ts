import { EditorSelection } from "@codemirror/state";
import type { EditorView, KeyBinding } from "@codemirror/view";
import { toggleCode, toggleHeading, toggleInline, toggleLines, toggleLink, type MarkdownEdit } from "~/lib/markdown-format";

export type FormatName = "heading" | "bold" | "italic" | "link" | "bullet" | "numbered" | "quote" | "code";

export interface FormatAction {
  name: FormatName;
  label: string;
  /** CodeMirror key names (the first is shown in the tooltip). */
  keys: string[];
  edit: (text: string, from: number, to: number) => MarkdownEdit;
}

/** The toolbar's formatting buttons, in order, and their shortcuts. */
export const FORMAT_ACTIONS: FormatAction[] = [
  { name: "heading", label: "Heading", keys: ["Mod-Alt-h"], edit: (text, from, to) => toggleHeading(text, from, to, "cycle") },
  { name: "bold", label: "Bold", keys: ["Mod-b"], edit: (text, from, to) => toggleInline(text, from, to, "bold") },
  { name: "italic", label: "Italic", keys: ["Mod-i"], edit: (text, from, to) => toggleInline(text, from, to, "italic") },
  { name: "link", label: "Link", keys: ["Mod-k"], edit: toggleLink },
  { name: "bullet", label: "Bulleted list", keys: ["Mod-Shift-8"], edit: (text, from, to) => toggleLines(text, from, to, "bullet") },
  { name: "numbered", label: "Numbered list", keys: ["Mod-Shift-7"], edit: (text, from, to) => toggleLines(text, from, to, "numbered") },
  { name: "quote", label: "Quote", keys: ["Mod-Shift-9"], edit: (text, from, to) => toggleLines(text, from, to, "quote") },
  { name: "code", label: "Code", keys: ["Mod-e"], edit: toggleCode },
];

/** Headings by level too, as Ghost's and Google Docs' keys have them. */
const HEADING_LEVELS: KeyBinding[] = ([2, 3] as const).map((level) => ({
  key: `Mod-Alt-${level}`,
  run: (view) => applyEdit(view, (text, from, to) => toggleHeading(text, from, to, level)),
}));

/** `edit` applied to the main selection as one undoable change (reading the whole text: edits are rare next to typing). */
export function applyEdit(view: EditorView, edit: FormatAction["edit"]): boolean {
  const { from, to } = view.state.selection.main;
  const change = edit(view.state.doc.toString(), from, to);
  view.dispatch({
    changes: { from: change.from, to: change.to, insert: change.insert },
    selection: EditorSelection.single(change.selection.from, change.selection.to),
    scrollIntoView: true,
    userEvent: "input.format",
  });
  return true;
}

export const formatKeymap: KeyBinding[] = [
  ...FORMAT_ACTIONS.flatMap((action) => action.keys.map((key) => ({ key, run: (view: EditorView) => applyEdit(view, action.edit) }))),
  ...HEADING_LEVELS,
];

const isApple = () => typeof navigator !== "undefined" && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);

/** A CodeMirror key name as people read it on this computer: "Mod-Shift-8" is "Ctrl+Shift+8", or "⌘⇧8" on a Mac. */
export function shortcutText(key: string): string {
  const apple = isApple();
  const names: Record<string, string> = apple ? { Mod: "⌘", Alt: "⌥", Shift: "⇧" } : { Mod: "Ctrl", Alt: "Alt", Shift: "Shift" };
  const parts = key.split("-").map((part) => names[part] ?? part.toUpperCase());
  return parts.join(apple ? "" : "+");
}

/** A CodeMirror key name as aria-keyshortcuts writes it ("Control+Shift+8"; "Meta" on a Mac). */
export function ariaShortcut(key: string): string {
  const names: Record<string, string> = { Mod: isApple() ? "Meta" : "Control", Alt: "Alt", Shift: "Shift" };
  return key
    .split("-")
    .map((part) => names[part] ?? part.toUpperCase())
    .join("+");
}
