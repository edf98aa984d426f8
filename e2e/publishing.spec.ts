import { expect, test, type Page } from "@playwright/test";
import { collectProblems, expectAccessible, signUp, VIEWPORTS } from "./support";
import { expectMarkdown } from "./markdown-editor";

/**
 * Publishing in the dashboard (docs/api.md, publishing and tags), at a phone's and a laptop's
 * width: tags with the account's tags suggested, a schedule picked in local time and cancelled from
 * the list, the list's status filter and sort, and unsaved changes recovered after the page was
 * closed; axe-core clean on the pages involved.
 */

/** The local "YYYY-MM-DDTHH:mm" of a moment `minutes` from now, as a datetime-local input takes it. */
function localInMinutes(minutes: number): string {
  const at = new Date(Date.now() + minutes * 60_000);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

async function createBlog(page: Page, title: string, tags: string[] = []): Promise<string> {
  await page.goto("/dashboard/blogs/new");
  await page.getByLabel("Title", { exact: true }).fill(title);
  for (const tag of tags) {
    await page.getByLabel("Tags", { exact: true }).fill(tag);
    await page.getByLabel("Tags", { exact: true }).press("Enter");
  }
  await page.getByRole("button", { name: "Create blog" }).click();
  await expect(page).toHaveURL(/\/dashboard\/blogs\/[^/?]+\?created=1$/);
  return new URL(page.url()).pathname;
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
    await page.goto("/dashboard/blogs/new");
    await page.getByLabel("Title", { exact: true }).fill("Scheduled later");
    await expect(page.locator("datalist option[value='Next.js']")).toHaveCount(1);
    await page.getByLabel("Tags", { exact: true }).fill("next-js");
    await page.getByLabel("Tags", { exact: true }).press("Enter");
    await expect(page.getByRole("list", { name: "Tags of this blog" })).toContainText("next-js");

    // Schedule: a local time an hour ahead, stored as UTC, shown in the list as Scheduled.
    await page.getByLabel("Schedule", { exact: true }).fill(localInMinutes(60));
    await expectAccessible(page, "new blog form");
    await page.getByRole("button", { name: "Create blog" }).click();
    await expect(page).toHaveURL(/\?created=1$/);
    await expect(page.getByText(/Scheduled for/)).toBeVisible();
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

    // Cancel the schedule from the list: a draft again.
    await scheduledRow.getByRole("button", { name: "Cancel schedule: Scheduled later" }).click();
    await expect(scheduledRow.getByText("Draft", { exact: true })).toBeVisible();
    await expect(scheduledRow.getByRole("button", { name: /Cancel schedule/ })).toHaveCount(0);

    // Unsaved changes survive a closed page, are offered back, and are gone once saved.
    const editPath = await createBlog(page, "Kept work");
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
    await again.getByRole("button", { name: "Save changes" }).click();
    await expect(again.getByText("Saved.")).toBeVisible();
    await again.waitForTimeout(800);
    await again.reload();
    await expectMarkdown(again.getByLabel("Content (Markdown)"), "Typed but never saved");
    await expect(again.getByRole("region", { name: "Unsaved changes" })).toHaveCount(0);

    expect(problems).toEqual([]);
    await context.close();
  });
}
