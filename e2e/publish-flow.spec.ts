import { expect, test, type Page } from "@playwright/test";
import { collectProblems, editorState, expectAccessible, localInMinutes, openSettings, publishNow, signUp, VIEWPORTS, waitForSave, writeDraft } from "./support";
import { expectMarkdown } from "./markdown-editor";

/**
 * The editor and publishing as one flow (docs/dashboard.md), at a phone's and a laptop's width: a
 * new post saved as a draft by autosave, scheduled and published through the one status control's
 * confirmation, unpublished after a warning, a published post's new slug announced as a redirect (and followed),
 * and the list's quick Public switch confirmed and undone; axe-core clean on the page, the sheet,
 * every confirmation panel and the toast. Then the editor's screenshots for the README.
 */

const publicStatus = async (page: Page, path: string) => (await page.request.get(path, { maxRedirects: 0 })).status();

for (const viewport of VIEWPORTS) {
  test(`write, schedule, publish, unpublish, rename and undo at ${viewport.width}×${viewport.height}`, async ({ browser }) => {
    test.setTimeout(240_000);
    const context = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height } });
    const page = await context.newPage();
    const problems = collectProblems(page, () => false);
    const run = `${viewport.name}-${Date.now().toString(36)}`;
    const handle = `flow-${run}`;
    await signUp(page, { name: "Flow Writer", handle, email: `flow-${run}@example.test` });

    // A new post: saved as a draft once it has a title, the address becomes its own, the caret stays.
    await page.goto("/dashboard/blogs/new");
    await expect(editorState(page)).toContainText("Draft");
    await expect(page.getByRole("button", { name: "Publish", exact: true })).toBeInViewport();
    await expectAccessible(page, "new post");
    await page.getByLabel("Title", { exact: true }).fill("Autosaved draft");
    const content = page.getByLabel("Content (Markdown)");
    await content.fill("Written, never saved by hand.");
    await expect(page).toHaveURL(/\/dashboard\/blogs\/(?!new$)[^/?]+$/);
    await waitForSave(page);
    await expect(content).toBeFocused();
    const draftPath = new URL(page.url()).pathname;
    await page.reload();
    await expectMarkdown(content, "Written, never saved by hand.");
    await page.goto("/dashboard");
    await expect(page.getByTestId("blog-row-autosaved-draft").getByText("Draft", { exact: true })).toBeVisible();

    // Schedule it: the panel says when, the bar says "Scheduled for …" (and nothing about "Public"), a reload keeps it.
    await page.goto(draftPath);
    await page.getByRole("button", { name: "Publish", exact: true }).click();
    const publishPanel = page.getByRole("dialog", { name: "Publish this post" });
    await expect(publishPanel.getByTestId("publish-sentence")).toHaveText(`It will be public at /${handle}/autosaved-draft now.`);
    await expectAccessible(page, "publish panel");
    await publishPanel.getByLabel("Schedule…").check();
    await publishPanel.getByLabel("Publish on").fill(localInMinutes(120));
    await expect(publishPanel.getByTestId("publish-sentence")).toContainText("It will become public on ");
    await expectAccessible(page, "schedule panel");
    await publishPanel.getByRole("button", { name: "Schedule", exact: true }).click();
    await expect(publishPanel).toHaveCount(0);
    await expect(editorState(page)).toContainText("Scheduled for");
    await expect(page.getByText(/Public off/)).toHaveCount(0);
    await page.reload();
    await expect(editorState(page)).toContainText("Scheduled for");
    await page.getByRole("button", { name: "Reschedule" }).click();
    const reschedulePanel = page.getByRole("dialog", { name: "Change the schedule" });
    await expect(reschedulePanel.getByLabel("Publish on")).not.toHaveValue("");
    await expectAccessible(page, "reschedule panel");
    await reschedulePanel.getByRole("button", { name: "Cancel", exact: true }).click();

    // Publish another now, after the confirmation: its public page answers.
    const publishedPath = await writeDraft(page, "Published today", "Hello, readers.");
    await expect(page.getByRole("button", { name: "Publish", exact: true })).toBeInViewport();
    await publishNow(page);
    expect(await publicStatus(page, `/${handle}/published-today`)).toBe(200);
    await page.goto(`/${handle}/published-today`);
    await expect(page.getByText("Hello, readers.")).toBeVisible();

    // A published post's edits wait for "Update"; a new slug is announced as a redirect from the old address.
    await page.goto(publishedPath);
    await expect(page.getByRole("button", { name: "Update" })).toBeInViewport();
    const settings = await openSettings(page);
    const slug = settings.getByLabel("Slug", { exact: true });
    await slug.fill("published-renamed");
    await expect(settings.getByText(`The old address /${handle}/published-today will redirect to the new one.`)).toBeVisible();
    await expect(editorState(page)).toContainText("Unsaved changes");
    await expectAccessible(page, viewport.width >= 1024 ? "settings panel with the slug warning" : "settings sheet with the slug warning");
    if (viewport.width < 1024) await settings.getByRole("button", { name: "Close" }).click();
    await page.getByRole("button", { name: "Update" }).click();
    await waitForSave(page);
    // The old address follows the post: one 301 to the new one.
    const moved = await page.request.get(`/${handle}/published-today`, { maxRedirects: 0 });
    expect(moved.status()).toBe(301);
    expect(moved.headers().location).toBe(`/${handle}/published-renamed`);
    await page.goto(`/${handle}/published-today`);
    await expect(page).toHaveURL(new RegExp(`/${handle}/published-renamed$`));
    await expect(page.getByText("Hello, readers.")).toBeVisible();
    // Its first slug back (which ends that redirect and starts the reverse one), for the steps below.
    await page.goto(publishedPath);
    const settingsAgain = await openSettings(page);
    await settingsAgain.getByLabel("Slug", { exact: true }).fill("published-today");
    await expect(settingsAgain.getByText(`The old address /${handle}/published-renamed will redirect to the new one.`)).toBeVisible();
    if (viewport.width < 1024) await settingsAgain.getByRole("button", { name: "Close" }).click();
    await page.getByRole("button", { name: "Update" }).click();
    await waitForSave(page);
    expect(await publicStatus(page, `/${handle}/published-today`)).toBe(200);

    // Unpublish, after a warning that the page will answer 404.
    await page.getByRole("button", { name: "Unpublish" }).click();
    const unpublishPanel = page.getByRole("dialog", { name: "Unpublish this post?" });
    await expect(unpublishPanel).toContainText(`The public page /${handle}/published-today will answer 404`);
    await expectAccessible(page, "unpublish panel");
    await unpublishPanel.getByRole("button", { name: "Unpublish" }).click();
    await expect(editorState(page)).toContainText("Draft");
    // The control that replaced the panel's holds the focus, not the page's body.
    await expect(page.getByRole("button", { name: "Publish", exact: true })).toBeFocused();
    expect(await publicStatus(page, `/${handle}/published-today`)).toBe(404);

    // The list: the Public switch asks first, then offers Undo in a toast.
    await page.goto("/dashboard");
    const row = page.getByTestId("blog-row-published-today");
    await row.getByRole("switch", { name: "Public: Published today" }).click();
    const confirm = page.getByRole("dialog", { name: "Publish “Published today”?" });
    await expect(confirm).toContainText(`It will be public at /${handle}/published-today now.`);
    await expectAccessible(page, "list's publish confirmation");
    await confirm.getByRole("button", { name: "Publish now" }).click();
    const toast = page.getByRole("status").filter({ hasText: "“Published today” is published." });
    await expect(toast).toBeVisible();
    await expect(row.getByText("Published", { exact: true })).toBeVisible();
    expect(await publicStatus(page, `/${handle}/published-today`)).toBe(200);
    await expectAccessible(page, "toast");
    await toast.getByRole("button", { name: "Undo" }).focus();
    await page.keyboard.press("Enter");
    await expect(row.getByText("Draft", { exact: true })).toBeVisible();
    expect(await publicStatus(page, `/${handle}/published-today`)).toBe(404);

    // Cancelling a schedule from the list, undone: scheduled again for the same moment.
    const scheduledRow = page.getByTestId("blog-row-autosaved-draft");
    const moment = await scheduledRow.locator("time").first().getAttribute("datetime");
    await scheduledRow.getByRole("button", { name: "Cancel schedule: Autosaved draft" }).click();
    await expect(scheduledRow.getByText("Draft", { exact: true })).toBeVisible();
    await page.getByRole("status").getByRole("button", { name: "Undo" }).click();
    await expect(scheduledRow.getByText("Scheduled", { exact: true })).toBeVisible();
    await expect(scheduledRow.locator("time").first()).toHaveAttribute("datetime", moment!);

    expect(problems).toEqual([]);
    await context.close();
  });

  test(`the editor's screenshot at ${viewport.width}×${viewport.height}`, async ({ browser }) => {
    test.setTimeout(120_000);
    const context = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height } });
    const page = await context.newPage();
    const run = `${viewport.name}-${Date.now().toString(36)}`;
    await signUp(page, { name: "Mara Lind", handle: `mara-${run}`, email: `mara-${run}@example.test` });
    await writeDraft(
      page,
      "What we learned moving our builds to a monorepo",
      [
        "Last spring our four repositories became one. Builds got faster, reviews got easier, and a few things broke in ways we did not expect.",
        "",
        "## Why we moved",
        "",
        "Every change to the shared UI kit meant four pull requests, four version bumps and a week of drift. One repository makes a change *one* change.",
        "",
        "## What it cost",
        "",
        "- CI minutes doubled for a month, until we cached per package",
        "- The first `git clone` takes 40 seconds instead of 8",
        "- Ownership needed writing down: `CODEOWNERS` now has 60 lines",
      ].join("\n"),
    );
    const settings = await openSettings(page);
    await settings.getByLabel("Description", { exact: true }).fill("Four repositories became one: faster builds, easier reviews, and the surprises along the way.");
    await settings.getByLabel("Tags", { exact: true }).fill("Engineering");
    await settings.getByLabel("Tags", { exact: true }).press("Enter");
    if (viewport.width < 1024) await settings.getByRole("button", { name: "Close" }).click();
    await waitForSave(page);
    // The text from its start, the caret in the title, as an owner opening the post sees it.
    await page.getByLabel("Content (Markdown)").evaluate((content) => content.closest(".cm-scroller")?.scrollTo(0, 0));
    await page.getByLabel("Title", { exact: true }).focus();
    await page.screenshot({ path: `docs/screenshots/editor-${viewport.width}.png` });
    await context.close();
  });
}
