import { expect, test } from "@playwright/test";
import { caretOf, contentEditor, dispatchImage, expectMarkdown, markdownOf, selectText, setCaret, showEditor, showPreview } from "./markdown-editor";
import { collectProblems, expectAccessible, pngBytes, signUp, VIEWPORTS, waitForSave } from "./support";

/**
 * The blog form's Markdown editor at a phone's and a laptop's width: a post written with the
 * toolbar's buttons and with keyboard shortcuts (the Markdown checked as typed, previewed and
 * saved), undo and redo, the toolbar's arrow keys, images put in at the caret by the Upload image
 * button, by a paste and by a drop at a point, focus mode in and out, the preview; axe-core clean
 * on the editor, the preview, focus mode and the alt text dialog; nothing wider than the screen.
 */

const POST = [
  "## Getting started",
  "",
  "Read the [docs](https://example.com/docs) _first_, it is **short**.",
  "",
  "- one",
  "- two",
  "",
  "1. alpha",
  "2. beta",
  "",
  "> A wise line",
  "",
  "`run()`",
].join("\n");

for (const viewport of VIEWPORTS) {
  test(`the Markdown editor at ${viewport.width}×${viewport.height}`, async ({ browser }) => {
    test.setTimeout(150_000);
    const context = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height } });
    const page = await context.newPage();
    const problems = collectProblems(page, () => false);
    const run = `${viewport.name}-${Date.now().toString(36)}`;
    await signUp(page, { name: "Wren Writer", handle: `wren-${run}`, email: `wren-${run}@example.test` });
    const shot = (name: string, fullPage = true) => page.screenshot({ path: test.info().outputPath(`${viewport.name}-${name}.png`), fullPage });
    const noOverflow = async () => expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    const editor = contentEditor(page);
    const toolbar = page.getByRole("toolbar", { name: "Formatting" });
    const button = (name: string) => toolbar.getByRole("button", { name, exact: true });

    await page.goto("/dashboard/blogs/new");
    await page.getByLabel("Title", { exact: true }).fill(`Editor ${run}`);

    await test.step("a post written with the toolbar and with shortcuts", async () => {
      await editor.click();
      await page.keyboard.type("Getting started");
      await button("Heading").click();
      await expectMarkdown(editor, "## Getting started");
      await page.keyboard.press("End");
      await page.keyboard.press("Enter");
      await page.keyboard.press("Enter");
      await page.keyboard.type("Read the docs first, it is short.");
      await selectText(editor, "docs");
      await page.keyboard.press("ControlOrMeta+k");
      // The address is selected, to be typed over.
      await page.keyboard.type("https://example.com/docs");
      await selectText(editor, "short");
      await page.keyboard.press("ControlOrMeta+b");
      await selectText(editor, "first");
      await button("Italic").click();
      await expect(editor).toBeFocused();
      await setCaret(editor, (await markdownOf(editor)).length);
      await page.keyboard.press("Enter");
      await page.keyboard.press("Enter");
      await button("Bulleted list").click();
      await page.keyboard.type("one");
      // Enter continues the list.
      await page.keyboard.press("Enter");
      await page.keyboard.type("two");
      await page.keyboard.insertText("\n\nalpha\nbeta");
      await selectText(editor, "alpha\nbeta");
      await page.keyboard.press("ControlOrMeta+Shift+7");
      await setCaret(editor, (await markdownOf(editor)).length);
      await page.keyboard.insertText("\n\nA wise line");
      await button("Quote").click();
      await page.keyboard.insertText("\n\nrun()");
      await selectText(editor, "run()");
      await page.keyboard.press("ControlOrMeta+e");
      await expectMarkdown(editor, POST);
      await page.keyboard.press("ControlOrMeta+z");
      await expectMarkdown(editor, POST.replace("`run()`", "run()"));
      await page.keyboard.press("ControlOrMeta+Shift+Z");
      await expectMarkdown(editor, POST);
      await expect(page.getByText(/^\d+ words · 1 min read · 1\d\d \/ 500,000 characters\./)).toBeVisible();
    });

    await test.step("the toolbar: one tab stop, arrow keys between its buttons, shortcuts in its tooltips", async () => {
      await button("Heading").focus();
      await page.keyboard.press("ArrowRight");
      await expect(button("Bold")).toBeFocused();
      await expect(page.getByText(/^Bold(Ctrl\+B|⌘B)$/)).toBeVisible();
      await page.keyboard.press("End");
      await expect(button("Focus mode")).toBeFocused();
      await page.keyboard.press("Home");
      await expect(button("Heading")).toBeFocused();
      await expect(toolbar.locator('button[tabindex="0"]')).toHaveCount(1);
      await expectAccessible(page, "editor");
      await noOverflow();
      await shot("01-editor");
    });

    await test.step("the preview renders what was written, as the public page will", async () => {
      await showPreview(page);
      const preview = page.getByTestId("markdown-preview");
      await expect(preview.getByRole("heading", { name: "Getting started", level: 2 })).toBeVisible();
      await expect(preview.getByRole("link", { name: "docs" })).toHaveAttribute("href", "https://example.com/docs");
      await expect(preview.locator("strong")).toHaveText("short");
      await expect(preview.locator("em")).toHaveText("first");
      await expect(preview.locator("ul > li")).toHaveText(["one", "two"]);
      await expect(preview.locator("ol > li")).toHaveText(["alpha", "beta"]);
      await expect(preview.locator("blockquote")).toHaveText("A wise line");
      await expect(preview.locator("code")).toHaveText("run()");
      await expectAccessible(page, "preview");
      await noOverflow();
      await shot("02-preview");
      await showEditor(page);
    });

    await test.step("saved as written (autosaved as a draft)", async () => {
      await expect(page).toHaveURL(/\/dashboard\/blogs\/(?!new$)[^/?]+$/);
      await waitForSave(page);
      await page.reload();
      await expectMarkdown(editor, POST);
    });

    const describe = async (alt: string) => {
      const dialog = page.getByRole("dialog", { name: "Describe the image" });
      await expect(dialog).toBeVisible();
      await dialog.getByLabel("Alt text", { exact: true }).fill(alt);
      await dialog.getByRole("button", { name: "Insert image" }).click();
      await expect(dialog).toHaveCount(0);
    };

    await test.step("Upload image puts the image on lines of its own at the caret, the caret after it", async () => {
      await setCaret(editor, "## Getting started".length);
      const chooser = page.waitForEvent("filechooser");
      await button("Upload image").click();
      await (await chooser).setFiles({ name: "green.png", mimeType: "image/png", buffer: await pngBytes(60, 40, "#15803d") });
      const dialog = page.getByRole("dialog", { name: "Describe the image" });
      await expect(dialog).toBeVisible();
      await expectAccessible(page, "alt text dialog");
      await shot("03-alt-text-dialog");
      await describe("A green field");
      const text = await markdownOf(editor);
      const image = /^## Getting started\n\n(!\[A green field\]\(\/images\/[a-z0-9]+\/60x40\.png\))\n\nRead the/.exec(text);
      expect(image, text).not.toBeNull();
      await expect(editor).toBeFocused();
      expect(await caretOf(editor)).toBe("## Getting started\n\n".length + image![1]!.length);
    });

    await test.step("a pasted image goes at the caret", async () => {
      await setCaret(editor, (await markdownOf(editor)).indexOf("> A wise line"));
      await dispatchImage(editor, "paste", await pngBytes(80, 60, "#1d4ed8"), "blue.png");
      await describe("A blue sky");
      await expectMarkdown(editor, /- two\n\n1\. alpha\n2\. beta\n\n!\[A blue sky\]\(\/images\/[a-z0-9]+\/80x60\.png\)\n\n> A wise line/);
    });

    await test.step("a dropped image goes where it is let go", async () => {
      await setCaret(editor, 0);
      await dispatchImage(editor, "drop", await pngBytes(40, 30, "#b91c1c"), "red.png", (await markdownOf(editor)).indexOf("- one"));
      await describe("A red roof");
      await expectMarkdown(editor, /\*\*short\*\*\.\n\n!\[A red roof\]\(\/images\/[a-z0-9]+\/40x30\.png\)\n\n- one/);
    });

    await test.step("focus mode: the editor alone, the focus kept in it, Escape or the button leaves", async () => {
      await editor.click();
      await page.keyboard.press("ControlOrMeta+Shift+F");
      const focusMode = page.getByRole("dialog", { name: "Focus mode" });
      await expect(focusMode).toBeVisible();
      await expect(editor).toBeFocused();
      await expect(page.getByTestId("markdown-preview")).toHaveCount(0);
      const box = await focusMode.boundingBox();
      expect(box).toMatchObject({ x: 0, y: 0, height: viewport.height });
      // Tab from the text goes round to the toolbar, never out to the page behind.
      for (let i = 0; i < 3; i++) {
        await page.keyboard.press("Tab");
        expect(await focusMode.evaluate((element) => element.contains(document.activeElement))).toBe(true);
      }
      await expectAccessible(page, "focus mode");
      await noOverflow();
      // Fixed to the screen: a full-page shot would show it where the page was scrolled.
      await shot("04-focus-mode", false);
      await editor.focus();
      await page.keyboard.press("Escape");
      await expect(focusMode).toHaveCount(0);
      await button("Focus mode").click();
      await expect(focusMode).toBeVisible();
      await focusMode.getByRole("button", { name: "Exit focus mode" }).click();
      await expect(focusMode).toHaveCount(0);
      await expect(editor).toBeFocused();
    });

    await waitForSave(page);
    expect(problems).toEqual([]);
    await context.close();
  });
}
