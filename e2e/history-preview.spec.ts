import { expect, test, type Page } from "@playwright/test";
import { collectProblems, expectAccessible, signUp, VIEWPORTS, waitForSave, writeDraft } from "./support";
import { expectMarkdown } from "./markdown-editor";

/**
 * The edit page's History and Share preview (docs/api.md, revisions and preview links), at a
 * phone's and a laptop's width: a diff of an earlier version against the current text, restored
 * after a confirmation; a preview link opened by a signed-out reader, then revoked; axe-core clean
 * with the panel, the dialog and the preview open.
 */

/** Writes `content` in an editing session of its own (a page load): autosaved, one revision. */
async function saveContent(page: Page, content: string): Promise<void> {
  await page.reload();
  await page.getByLabel("Content (Markdown)").fill(content);
  await waitForSave(page);
}

for (const viewport of VIEWPORTS) {
  test(`history with a diff and restore, and a preview link for a signed-out reader, at ${viewport.width}×${viewport.height}`, async ({ browser }) => {
    test.setTimeout(120_000);
    const context = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height } });
    const page = await context.newPage();
    // The revoked link's 404 is provoked.
    const problems = collectProblems(page, (url) => url.includes("/preview/"));
    const run = `${viewport.name}-${Date.now().toString(36)}`;
    await signUp(page, { name: "Historian", handle: `hist-${run}`, email: `hist-${run}@example.test` });

    await writeDraft(page, "A draft with a past", "The first version of the text.");
    await saveContent(page, "The second version of the text.");
    await saveContent(page, "The third and current text.");

    // History: newest first; the first version against the current text.
    const revisions = page.getByRole("list", { name: "Revisions, newest first" }).getByRole("listitem");
    await expect(revisions).toHaveCount(3);
    await expect(revisions.first()).toContainText("You");
    await revisions.last().getByRole("button").click();
    const changes = page.getByRole("region", { name: "Changes since this revision" });
    await expect(changes.locator("del")).toContainText("The first version of the text.");
    await expect(changes.locator("ins")).toContainText("The third and current text.");
    await expectAccessible(page, "history with a diff");

    await changes.getByRole("button", { name: "Restore this version" }).click();
    const dialog = page.getByRole("dialog", { name: "Restore this version?" });
    await expect(dialog).toBeVisible();
    await expectAccessible(page, "restore dialog");
    await dialog.getByRole("button", { name: "Restore", exact: true }).click();
    await expectMarkdown(page.getByLabel("Content (Markdown)"), "The first version of the text.");
    await expect(revisions).toHaveCount(4);
    await expect(revisions.first()).toContainText("Restore");

    // Share preview: the draft through a secret link, to a reader without a session.
    await page.getByRole("button", { name: "Create preview link" }).click();
    const link = await page.getByLabel("Preview link", { exact: true }).inputValue();
    expect(link).toMatch(/\/preview\/[A-Za-z0-9_-]{43}$/);
    await expectAccessible(page, "share preview");
    const reader = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height } });
    const readerPage = await reader.newPage();
    await readerPage.goto(link);
    await expect(readerPage.getByRole("heading", { level: 1, name: "A draft with a past" })).toBeVisible();
    await expect(readerPage.getByText("The first version of the text.")).toBeVisible();
    await expect(readerPage.getByRole("note")).toContainText("Preview.");
    await expect(readerPage.locator('meta[name="robots"]')).toHaveAttribute("content", /noindex/);
    await expectAccessible(readerPage, "preview page");

    await page.getByRole("list", { name: "Active preview links" }).getByRole("button", { name: "Revoke" }).click();
    const revokeDialog = page.getByRole("dialog", { name: "Revoke this preview link?" });
    await revokeDialog.getByRole("button", { name: "Revoke link" }).click();
    // The dialog hides the rest of the page from assistive technology while open: wait for it to close.
    await expect(revokeDialog).toHaveCount(0);
    await expect(page.getByRole("list", { name: "Active preview links" })).toHaveCount(0);
    const gone = await readerPage.goto(link);
    expect(gone?.status()).toBe(404);

    expect(problems).toEqual([]);
    await reader.close();
    await context.close();
  });
}
