import { expect, test, type Page } from "@playwright/test";
import { collectProblems, editorState, expectAccessible, localInMinutes, openSettings, signUp, VIEWPORTS, waitForSave, writeDraft } from "./support";
import { expectMarkdown } from "./markdown-editor";

/**
 * Publishing in the dashboard (docs/api.md, publishing and tags), at a phone's and a laptop's
 * width: tags with the account's tags suggested, a schedule picked in local time and cancelled from
 * the list, the list's status filter and sort, and unsaved changes recovered after the page was
 * closed; axe-core clean on the pages involved.
 */

async function createBlog(page: Page, title: string, tags: string[] = []): Promise<string> {
  const path = await writeDraft(page, title);
  if (tags.length === 0) return path;
  const settings = await openSettings(page);
  for (const tag of tags) {
    await settings.getByLabel("Tags", { exact: true }).fill(tag);
    await settings.getByLabel("Tags", { exact: true }).press("Enter");
  }
  if ((page.viewportSize()?.width ?? 0) < 1024) await settings.getByRole("button", { name: "Close" }).click();
  await waitForSave(page);
  return path;
}

for (const viewport of VIEWPORTS) {
  test(`schedule, cancel, tag, filter, sort and recover unsaved changes at ${viewport.width}×${viewport.height}`, async ({ browser }) => {
    test.setTimeout(120_000);
    const context = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height } });
    const page = await context.newPage();
    const problems = collectProblems(page, () => false);
    const run = `${viewport.name}-${Date.now().toString(36)}`;
    await signUp(page, { name: "Publisher", handle: `pub-${run}`, email: `pub-${run}@example.test` });

    // Tags: typed and added with Enter; the second blog is offered the first one's tags.
    await createBlog(page, "Tagged first", ["Next.js", "Databases"]);
    await writeDraft(page, "Scheduled later");
    const settings = await openSettings(page);
    await expect(settings.locator("datalist option[value='Next.js']")).toHaveCount(1);
    await settings.getByLabel("Tags", { exact: true }).fill("next-js");
    await settings.getByLabel("Tags", { exact: true }).press("Enter");
    await expect(settings.getByRole("list", { name: "Tags of this blog" })).toContainText("next-js");
    await expectAccessible(page, "new blog's settings");
    if (viewport.width < 1024) await settings.getByRole("button", { name: "Close" }).click();
    await waitForSave(page);

    // Schedule: a local time an hour ahead, stored as UTC, shown in the list as Scheduled.
    await page.getByRole("button", { name: "Publish", exact: true }).click();
    const panel = page.getByRole("dialog", { name: "Publish this post" });
    await panel.getByLabel("Schedule…").check();
    await panel.getByLabel("Publish on").fill(localInMinutes(60));
    await panel.getByRole("button", { name: "Schedule", exact: true }).click();
    await expect(editorState(page)).toContainText("Scheduled for");
    await expectAccessible(page, "edit form");

    await page.goto("/dashboard");
    const scheduledRow = page.getByTestId("blog-row-scheduled-later");
    await expect(scheduledRow.getByText("Scheduled", { exact: true })).toBeVisible();
    await expect(scheduledRow.getByText("next-js")).toBeVisible();
    await expect(page.getByTestId("blog-row-tagged-first").getByText("Databases")).toBeVisible();
    await expectAccessible(page, "blog list");

    // The status filter and the sort, kept in the address.
    await page.getByLabel("Status").selectOption("scheduled");
    await expect(page).toHaveURL(/status=scheduled/);
    await expect(page.getByTestId("blog-row-tagged-first")).toHaveCount(0);
    await expect(scheduledRow).toBeVisible();
    await page.getByLabel("Status").selectOption("");
    await page.getByLabel("Sort").selectOption("title");
    await expect(page).toHaveURL(/sort=title/);
    await expect(page.locator("[data-testid^=blog-row-]").first()).toHaveAttribute("data-testid", "blog-row-scheduled-later");
    await page.reload();
    await expect(page.getByLabel("Sort")).toHaveValue("title");

    // Cancel the schedule from the list: a draft again (Undo offered, not taken).
    await scheduledRow.getByRole("button", { name: "Cancel schedule: Scheduled later" }).click();
    await expect(scheduledRow.getByText("Draft", { exact: true })).toBeVisible();
    await expect(scheduledRow.getByRole("button", { name: /Cancel schedule/ })).toHaveCount(0);

    // Unsaved changes of a published blog (which autosave leaves alone) survive a closed page, are
    // offered back, and are gone once saved.
    const editPath = await createBlog(page, "Kept work");
    await page.getByRole("button", { name: "Publish", exact: true }).click();
    await page.getByRole("dialog", { name: "Publish this post" }).getByRole("button", { name: "Publish now" }).click();
    await expect(editorState(page)).toContainText("Published");
    await page.getByLabel("Content (Markdown)").fill("Typed but never saved");
    await page.waitForTimeout(800);
    await page.close({ runBeforeUnload: false });
    const again = await context.newPage();
    problems.push(...collectProblems(again, () => false));
    await again.goto(editPath);
    await expect(again.getByRole("region", { name: "Unsaved changes" })).toBeVisible();
    await expectAccessible(again, "unsaved changes offer");
    await again.getByRole("button", { name: "Restore unsaved changes" }).click();
    await expectMarkdown(again.getByLabel("Content (Markdown)"), "Typed but never saved");
    await again.getByRole("button", { name: "Update" }).click();
    await waitForSave(again);
    await again.waitForTimeout(800);
    await again.reload();
    await expectMarkdown(again.getByLabel("Content (Markdown)"), "Typed but never saved");
    await expect(again.getByRole("region", { name: "Unsaved changes" })).toHaveCount(0);

    expect(problems).toEqual([]);
    await context.close();
  });
}
