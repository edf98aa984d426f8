import { readFile } from "node:fs/promises";
import { expect, test, type Page } from "@playwright/test";
import { IMPORT_PROCEDURE } from "~/shared/dashboard-limits";
import { collectProblems, expectAccessible, pngBytes, signUp, VIEWPORTS, zipEntryNames, zipOf } from "./support";

/**
 * The Import & export page (docs/dashboard.md, Import & export): a file that is no export is
 * refused in the page; a zip of Markdown files is uploaded as the page sends it (XMLHttpRequest,
 * with its progress), followed to its end across a reload, its report read with its lists open;
 * a second one with the old site's address; the first undone after confirming, its blogs gone;
 * the account's export downloaded. On a phone and on a laptop; screenshots into docs/screenshots/.
 */

const post = (frontMatter: string, body: string) => `---\n${frontMatter}\n---\n\n${body}\n`;
const TWELVE_TAGS = Array.from({ length: 12 }, (_, i) => `tag-${i + 1}`).join(", ");
/** Refused at once (port 9, discard, listens nowhere here): an image the report lists as not brought in. */
const UNREACHABLE_IMAGE = "http://127.0.0.1:9/boxes.jpg";

/**
 * A Jekyll site as a zip: a post with an image of the archive, one image that cannot be fetched
 * and twelve tags (two left out), a draft, and the site's configuration, skipped.
 */
async function jekyllSite(): Promise<Buffer> {
  return zipOf({
    "_posts/2024-03-01-moving-day.md": post(
      `title: "Moving day"\ndate: 2024-03-01T10:00:00Z\ntags: [${TWELVE_TAGS}]\ndescription: Boxes everywhere`,
      `We **moved**.\n\n![The new kitchen](../images/kitchen.png)\n\n![Boxes](${UNREACHABLE_IMAGE})`,
    ),
    "_posts/unfinished.md": post('title: "Unfinished thoughts"\ndraft: true', "Not yet."),
    "images/kitchen.png": await pngBytes(40, 30, "#0f766e"),
    "_config.yml": "title: My old site\n",
  });
}

/** A Hugo site as a zip: one post, imported with its old address. */
const hugoSite = () => zipOf({ "content/posts/hello-again.md": '+++\ntitle = "Hello again"\ndate = 2023-05-02T08:00:00Z\n+++\n\nStill here.\n' });

const importCard = (page: Page, fileName: string) => page.getByTestId("import").filter({ has: page.getByRole("heading", { name: fileName, exact: true }) });
const reportFigure = (page: Page, fileName: string, label: string) =>
  importCard(page, fileName).getByTestId("import-report").getByTestId("report-figure").filter({ has: page.getByText(label, { exact: true }) });

for (const size of VIEWPORTS) {
  test(`import and export on a ${size.name} (${size.width} px)`, async ({ page }) => {
    test.setTimeout(240_000);
    await page.setViewportSize({ width: size.width, height: size.height });
    // The refusal of the file that is no export is provoked; nothing else may fail.
    const problems = collectProblems(page, (url) => url.includes(`/api/trpc/${IMPORT_PROCEDURE}`));
    const run = `${size.name}-${Date.now().toString(36)}`;
    const handle = `ivy-${run}`;
    await signUp(page, { name: "Ivy Import", handle, email: `ivy-${run}@example.test` });
    await page.getByRole("link", { name: "Import & export", exact: true }).click();
    await expect(page.getByRole("heading", { name: "Import & export", level: 1 })).toBeVisible();
    await expect(page.getByText("No imports yet")).toBeVisible({ timeout: 30_000 });
    await expectAccessible(page, "Import & export, empty");
    await page.screenshot({ path: `test-results/import-export-empty-${size.width}.png`, fullPage: true, animations: "disabled" });

    await test.step("a file is required", async () => {
      await page.getByRole("button", { name: "Import", exact: true }).click();
      await expect(page.getByText("Choose your export's file: a .xml, .json or .zip.")).toBeVisible();
    });

    await test.step("a text file named .zip is refused in the page, saying why", async () => {
      await page.getByLabel("Export file").setInputFiles({ name: "notes.zip", mimeType: "application/zip", buffer: Buffer.from("Just some notes, not an export.\n") });
      await page.getByRole("button", { name: "Import", exact: true }).click();
      const refusal = page.getByRole("alert").filter({ hasText: "This file is not an export we read" });
      await expect(refusal).toBeVisible({ timeout: 30_000 });
      await expect(refusal).toContainText("a WordPress export");
      await expect(refusal).not.toContainText("Invalid parameter");
      await expect(page.getByText("No imports yet")).toBeVisible();
      await expectAccessible(page, "Import & export, a file refused");
      await page.screenshot({ path: `test-results/import-export-refused-${size.width}.png`, fullPage: true, animations: "disabled" });
    });

    await test.step("upload a zip of Markdown files, with its progress", async () => {
      await page.getByLabel("Export file").setInputFiles({ name: "my-site.zip", mimeType: "application/zip", buffer: await jekyllSite() });
      await expect(page.getByTestId("chosen-file")).toContainText("my-site.zip");
      await expect(page.getByRole("alert").filter({ hasText: "not an export" })).toHaveCount(0);
      // The request is held until its progress has been seen: a small file is sent in an instant.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let passed!: () => void;
      const continued = new Promise<void>((resolve) => (passed = resolve));
      await page.route(`**/api/trpc/${IMPORT_PROCEDURE}`, async (route) => {
        await held;
        await route.continue();
        passed();
      });
      const sent = page.waitForRequest((request) => request.url().endsWith(`/api/trpc/${IMPORT_PROCEDURE}`));
      await page.getByRole("button", { name: "Import", exact: true }).click();
      const request = await sent;
      expect(request.resourceType()).toBe("xhr");
      expect(request.headers()["content-type"]).toMatch(/^multipart\/form-data/);
      await expect(page.getByRole("progressbar", { name: /my-site\.zip/ })).toBeVisible();
      await expect(page.getByRole("button", { name: "Cancel upload" })).toBeVisible();
      await page.screenshot({ path: `test-results/import-export-uploading-${size.width}.png`, animations: "disabled" });
      release();
      await continued;
      await page.unroute(`**/api/trpc/${IMPORT_PROCEDURE}`);
      await expect(page.getByRole("status").filter({ hasText: "my-site.zip is uploaded" })).toBeVisible({ timeout: 30_000 });
      await expect(importCard(page, "my-site.zip")).toBeVisible();
    });

    await test.step("the import goes on across a reload; its report shows, its lists open", async () => {
      await page.reload();
      const card = importCard(page, "my-site.zip");
      await expect(card.getByText("Done", { exact: true })).toBeVisible({ timeout: 90_000 });
      await expect(reportFigure(page, "my-site.zip", "Imported")).toContainText("2");
      await expect(reportFigure(page, "my-site.zip", "Skipped")).toContainText("1");
      await expect(reportFigure(page, "my-site.zip", "Images")).toContainText("1");
      await expect(reportFigure(page, "my-site.zip", "Images not brought in")).toContainText("1");

      await card.getByText("Skipped: 1 file", { exact: true }).click();
      const skipped = card.getByRole("table", { name: "Skipped items" });
      await expect(skipped.getByRole("row").filter({ hasText: "_config.yml" })).toContainText("not a Markdown post");
      await card.getByText(/^Changed posts \(\d+\)$/).click();
      const changed = card.getByRole("table", { name: "Changed posts" });
      await expect(changed.getByRole("row").filter({ hasText: "At most 10 tags" })).toContainText("tag-11, tag-12");
      await expect(changed.getByRole("link", { name: "Moving day" }).first()).toHaveAttribute("href", /^\/dashboard\/blogs\/.+/);
      await card.getByText("Images not brought in (1)").click();
      await expect(card.getByRole("table", { name: "Images not brought in" })).toContainText(UNREACHABLE_IMAGE);
      await expect(card.getByRole("table", { name: "Images not brought in" })).toContainText("the old site refused the connection (ECONNREFUSED)");
      await expectAccessible(page, "Import & export, an import done, its lists open");
    });

    await test.step("a second import, with the old site's address", async () => {
      await page.getByLabel("Export file").setInputFiles({ name: "old-hugo.zip", mimeType: "application/zip", buffer: await hugoSite() });
      await page.getByLabel("Old site address (optional)").fill("https://old-blog.example.com");
      await page.getByRole("button", { name: "Import", exact: true }).click();
      await expect(page.getByRole("status").filter({ hasText: "old-hugo.zip is uploaded" })).toBeVisible({ timeout: 30_000 });
      const card = importCard(page, "old-hugo.zip");
      await expect(card.getByText("Done", { exact: true })).toBeVisible({ timeout: 90_000 });
      await expect(card).toContainText("from https://old-blog.example.com");
      await expect(reportFigure(page, "old-hugo.zip", "Imported")).toContainText("1");
      // Newest first.
      await expect(page.getByTestId("import").first()).toContainText("old-hugo.zip");
      await page.mouse.move(0, 0); // no button shown hovered
      await page.screenshot({ path: `docs/screenshots/import-export-${size.width}.png`, fullPage: true, animations: "disabled" });
      await page.getByRole("link", { name: "Blogs", exact: true }).click();
      await expect(page.getByText("Moving day").first()).toBeVisible();
      await expect(page.getByText("Hello again").first()).toBeVisible();
      await page.getByRole("link", { name: "Import & export", exact: true }).click();
    });

    await test.step("undo the first import after confirming: its blogs are gone", async () => {
      const card = importCard(page, "my-site.zip");
      await card.getByRole("button", { name: "Undo this import" }).click();
      const dialog = page.getByRole("dialog", { name: "Undo this import?" });
      await expect(dialog).toContainText("The 2 blogs it created are deleted");
      await expectAccessible(page, "Undo import");
      await dialog.getByRole("button", { name: "Undo import" }).click();
      await expect(dialog).toBeHidden();
      await expect(card.getByText("Undone", { exact: true })).toBeVisible();
      await expect(card.getByRole("button", { name: "Undo this import" })).toHaveCount(0);
      await expect(importCard(page, "old-hugo.zip").getByRole("button", { name: "Undo this import" })).toBeVisible();
      await page.getByRole("link", { name: "Blogs", exact: true }).click();
      await expect(page.getByText("Hello again").first()).toBeVisible();
      await expect(page.getByText("Moving day")).toHaveCount(0);
      await expect(page.getByText("Unfinished thoughts")).toHaveCount(0);
      await page.getByRole("link", { name: "Import & export", exact: true }).click();
    });

    await test.step("download everything as a zip", async () => {
      const download = page.waitForEvent("download");
      await page.getByRole("link", { name: "Download everything (.zip)" }).click();
      const file = await download;
      expect(file.suggestedFilename()).toMatch(new RegExp(`^${handle}-export-\\d{4}-\\d{2}-\\d{2}\\.zip$`));
      const names = await zipEntryNames(await readFile(await file.path()));
      expect(names).toContain("ghost.json");
      expect(names).toContain("posts/hello-again.md");
    });

    expect(problems).toEqual([]);
  });
}
