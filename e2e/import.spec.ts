import { readFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import { ZipFile } from "yazl";
import { expectAccessible, signUp, VIEWPORTS } from "./support";

/**
 * The Import & export page (docs/migrating.md): upload a zip of Markdown files, follow it to its
 * end across a reload, read the report, undo the import, and download the account's export. On a
 * phone and on a laptop; screenshots into docs/screenshots/.
 */

/** A zip of two Markdown posts with front matter, as a Jekyll or Hugo site keeps them. */
function markdownZip(): Promise<Buffer> {
  const zip = new ZipFile();
  const post = (frontMatter: string, body: string) => Buffer.from(`---\n${frontMatter}\n---\n\n${body}\n`);
  zip.addBuffer(post('title: "Moving day"\ndate: 2024-03-01T10:00:00Z\ntags: [moving, notes]\ndescription: Boxes everywhere', "We **moved**."), "_posts/2024-03-01-moving-day.md");
  zip.addBuffer(post('title: "Unfinished thoughts"\ndraft: true', "Not yet."), "_posts/unfinished.md");
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on("data", (chunk: Buffer) => chunks.push(chunk));
    zip.outputStream.on("end", () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on("error", reject);
  });
}

for (const size of VIEWPORTS) {
  test(`import and export on a ${size.name} (${size.width} px)`, async ({ page }) => {
    test.setTimeout(180_000);
    await page.setViewportSize({ width: size.width, height: size.height });
    const run = `${size.name}-${Date.now().toString(36)}`;
    const handle = `ivy-${run}`;
    await signUp(page, { name: "Ivy Import", handle, email: `ivy-${run}@example.test` });
    await page.getByRole("link", { name: "Import & export", exact: true }).click();
    await expect(page.getByRole("heading", { name: "Import & export", level: 1 })).toBeVisible();
    await expect(page.getByText("No imports yet")).toBeVisible({ timeout: 30_000 });
    await expectAccessible(page, "Import & export, empty");

    await test.step("a file is required", async () => {
      await page.getByRole("button", { name: "Import", exact: true }).click();
      await expect(page.getByText("Choose your export's file: a .xml, .json or .zip.")).toBeVisible();
    });

    await test.step("upload a zip of Markdown files", async () => {
      await page.getByLabel("Export file").setInputFiles({ name: "my-site.zip", mimeType: "application/zip", buffer: await markdownZip() });
      await expect(page.getByTestId("chosen-file")).toContainText("my-site.zip");
      await page.getByLabel("Old site address (optional)").fill("https://old-blog.example.com");
      await page.getByRole("button", { name: "Import", exact: true }).click();
      await expect(page.getByRole("status").filter({ hasText: "my-site.zip is uploaded" })).toBeVisible({ timeout: 30_000 });
      await expect(page.getByTestId("import").first()).toContainText("my-site.zip");
    });

    await test.step("the import goes on across a reload, and its report shows", async () => {
      await page.reload();
      const card = page.getByTestId("import").first();
      await expect(card).toContainText("my-site.zip");
      await expect(card.getByText("Done", { exact: true })).toBeVisible({ timeout: 90_000 });
      const report = card.getByTestId("import-report");
      await expect(report.locator("div").filter({ has: page.getByText("Imported", { exact: true }) })).toContainText("2");
      await expect(card).toContainText("from https://old-blog.example.com");
      await expectAccessible(page, "Import & export, an import done");
      await page.screenshot({ path: `docs/screenshots/import-export-${size.width}.png`, fullPage: true, animations: "disabled" });
      await page.getByRole("link", { name: "Blogs", exact: true }).click();
      await expect(page.getByText("Moving day").first()).toBeVisible();
      await page.getByRole("link", { name: "Import & export", exact: true }).click();
    });

    await test.step("undo the import after confirming", async () => {
      const card = page.getByTestId("import").first();
      await card.getByRole("button", { name: "Undo this import" }).click();
      const dialog = page.getByRole("dialog", { name: "Undo this import?" });
      await expect(dialog).toContainText("The 2 blogs it created are deleted");
      await expectAccessible(page, "Undo import");
      await dialog.getByRole("button", { name: "Undo import" }).click();
      await expect(dialog).toBeHidden();
      await expect(card.getByText("Undone", { exact: true })).toBeVisible();
      await expect(card.getByRole("button", { name: "Undo this import" })).toHaveCount(0);
    });

    await test.step("download everything as a zip", async () => {
      const download = page.waitForEvent("download");
      await page.getByRole("link", { name: "Download everything (.zip)" }).click();
      const file = await download;
      expect(file.suggestedFilename()).toMatch(new RegExp(`^${handle}-export-\\d{4}-\\d{2}-\\d{2}\\.zip$`));
      const bytes = await readFile(await file.path());
      expect(bytes.readUInt32LE(0)).toBe(0x04034b50);
      expect(bytes.includes(Buffer.from("ghost.json"))).toBe(true);
    });
  });
}
