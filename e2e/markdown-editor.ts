import { expect, type Locator, type Page } from "@playwright/test";

/**
 * The blog form's Markdown editor as tests drive it. CodeMirror keeps only the lines in view in the
 * DOM, so the text and the caret are read and set through its view, which its content element holds
 * (`cmTile.root.view`, as EditorView.findFromDOM finds it: the page has no module to call that).
 */
interface EditorViewLike {
  state: { doc: { toString(): string }; selection: { main: { head: number } } };
  dispatch(spec: { selection: { anchor: number; head?: number } }): void;
  focus(): void;
  coordsAtPos(pos: number): { left: number; top: number; bottom: number } | null;
}
type EditorElement = HTMLElement & { cmTile: { root: { view: EditorViewLike } } };

export const contentEditor = (page: Page) => page.getByLabel("Content (Markdown)", { exact: true });

export const markdownOf = (editor: Locator) => editor.evaluate((element) => (element as EditorElement).cmTile.root.view.state.doc.toString());

export const caretOf = (editor: Locator) => editor.evaluate((element) => (element as EditorElement).cmTile.root.view.state.selection.main.head);

/** The caret at `at`, the focus in the editor, as a click there would leave them. */
export const setCaret = (editor: Locator, at: number) =>
  editor.evaluate((element, at) => {
    const { view } = (element as EditorElement).cmTile.root;
    view.dispatch({ selection: { anchor: at } });
    view.focus();
  }, at);

export const expectMarkdown = (editor: Locator, expected: string | RegExp) =>
  typeof expected === "string" ? expect.poll(() => markdownOf(editor)).toBe(expected) : expect.poll(() => markdownOf(editor)).toMatch(expected);

/** The preview in sight: beside the editor on a wide screen, after the Preview button on a narrow one. */
export async function showPreview(page: Page): Promise<void> {
  const toggle = page.getByRole("group", { name: "Content view" });
  if (await toggle.isVisible()) await toggle.getByRole("button", { name: "preview", exact: true }).click();
  await expect(page.getByTestId("markdown-preview")).toBeVisible();
}

/** The editor in sight again after showPreview. */
export async function showEditor(page: Page): Promise<void> {
  const toggle = page.getByRole("group", { name: "Content view" });
  if (await toggle.isVisible()) await toggle.getByRole("button", { name: "write", exact: true }).click();
  await expect(contentEditor(page)).toBeVisible();
}

/** The first `text` in the editor selected, the focus in the editor. */
export const selectText = (editor: Locator, text: string) =>
  editor.evaluate((element, text) => {
    const { view } = (element as EditorElement).cmTile.root;
    const from = view.state.doc.toString().indexOf(text);
    if (from === -1) throw new Error(`"${text}" is not in the editor`);
    view.dispatch({ selection: { anchor: from, head: from + text.length } });
    view.focus();
  }, text);

/**
 * `bytes` as a PNG File in a DataTransfer, dispatched on `field` as the browser dispatches a paste
 * or a drop; a drop `at` a position of the editor's text lets go over where that position is shown.
 */
export async function dispatchImage(field: Locator, kind: "paste" | "drop", bytes: Buffer, name: string, at?: number): Promise<void> {
  await field.evaluate(
    (element, { kind, bytes, name, at }) => {
      const data = new DataTransfer();
      data.items.add(new File([new Uint8Array(bytes)], name, { type: "image/png" }));
      const init = { bubbles: true, cancelable: true };
      const point = at === undefined ? null : (element as EditorElement).cmTile.root.view.coordsAtPos(at);
      const where = point ? { clientX: point.left + 1, clientY: (point.top + point.bottom) / 2 } : {};
      element.dispatchEvent(kind === "paste" ? new ClipboardEvent("paste", { ...init, clipboardData: data }) : new DragEvent("drop", { ...init, ...where, dataTransfer: data }));
    },
    { kind, bytes: [...bytes], name, at },
  );
}
