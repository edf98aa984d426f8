import { defineLanguageFacet, Language, syntaxTree } from "@codemirror/language";
import { EditorSelection } from "@codemirror/state";
import type { KeyBinding } from "@codemirror/view";
import { GFM, parser } from "@lezer/markdown";
import { continueMarkup } from "~/lib/markdown-format";

/**
 * GitHub-flavoured Markdown's syntax tree, for highlighting (the parser carries its style tags).
 * Built here rather than taken from @codemirror/lang-markdown, which brings the HTML, CSS and
 * JavaScript languages and autocompletion along (some 400 kB) for code blocks we do not highlight.
 */
export const markdownLanguage = new Language(defineLanguageFacet(), parser.configure(GFM), [], "markdown");

const IN_CODE = new Set(["FencedCode", "CodeBlock"]);

/** Enter continues a list or a quote (continueMarkup), but in code, where a line is only a line. */
export const continueOnEnter: KeyBinding = {
  key: "Enter",
  run: (view) => {
    const { main } = view.state.selection;
    if (!main.empty) return false;
    for (let node: ReturnType<typeof syntaxTree>["topNode"] | null = syntaxTree(view.state).resolveInner(main.head, -1); node; node = node.parent) {
      if (IN_CODE.has(node.name)) return false;
    }
    const line = view.state.doc.lineAt(main.head);
    const edit = continueMarkup(line.text, main.head - line.from);
    if (!edit) return false;
    view.dispatch({
      changes: { from: line.from + edit.from, to: line.from + edit.to, insert: edit.insert },
      selection: EditorSelection.cursor(line.from + edit.selection.from),
      scrollIntoView: true,
      userEvent: "input",
    });
    return true;
  },
};
