import { expect, test, type Locator, type Page } from "@playwright/test";
import { MAX_IMAGE_BYTES } from "~/shared/images";
import { collectProblems, expectAccessible, openSettings, pngBytes, publishNow, signUp, uploadImage, VIEWPORTS } from "./support";
import { caretOf, dispatchImage, expectMarkdown, markdownOf, setCaret, showEditor, showPreview } from "./markdown-editor";

/**
 * The owner's images, at a phone's and a laptop's width: refusals told on the Images page; an
 * image pasted into the editor's content (its progress shown and cancellable), given alt text and
 * seen in the preview, another dropped in as decorative; a cover chosen; the blog published with
 * both on its public page; Copy URL and Copy Markdown; storage on the Usage page; the image deleted
 * after a warning naming the blog; the Images page a page at a time; axe-core clean with each
 * dialog open.
 */

/** Clicks `button` on `card` and expects `text` on the clipboard. */
async function expectCopied(page: Page, card: Locator, button: string, text: string): Promise<void> {
  await card.getByRole("button", { name: button }).click();
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(text);
}

for (const viewport of VIEWPORTS) {
  test(`images in the editor, as a cover, on the Images and Usage pages at ${viewport.width}×${viewport.height}`, async ({ browser }) => {
    test.setTimeout(180_000);
    const context = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height }, permissions: ["clipboard-read", "clipboard-write"] });
    const page = await context.newPage();
    // The refusal the spec provokes: a text file sent as an image (415).
    const problems = collectProblems(page, (url) => url.endsWith("/api/trpc/images.upload"));
    const run = `${viewport.name}-${Date.now().toString(36)}`;
    const owner = { name: "Ima Ges", handle: `img-${run}`, email: `img-${run}@example.test` };
    await signUp(page, owner);
    const shot = (name: string) => page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });
    const noOverflow = async () => expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);

    await test.step("the Images page, empty, tells refusals in plain words", async () => {
      await page.getByRole("link", { name: "Images", exact: true }).click();
      await expect(page.getByText("No images yet")).toBeVisible();
      await expectAccessible(page, "images page, empty");
      const fileInput = page.locator('input[type="file"]');
      await fileInput.setInputFiles({ name: "notes.png", mimeType: "image/png", buffer: Buffer.from("Not a picture at all.") });
      await expect(page.getByRole("alert").filter({ hasText: "This file is not an image we accept: use a JPEG, PNG, WebP, AVIF or GIF." })).toBeVisible();
      // Refused before sending: no request is made.
      await fileInput.setInputFiles({ name: "huge.png", mimeType: "image/png", buffer: Buffer.alloc(MAX_IMAGE_BYTES + 1) });
      await expect(page.getByRole("alert").filter({ hasText: "This image is too large: an image may be at most 10 MiB." })).toBeVisible();
    });

    const content = page.getByLabel("Content (Markdown)");
    const before = "Before the picture.\n\n";
    const after = "\n\nAfter the picture.";
    let imageId = "";
    let decorativeId = "";
    await test.step("a pasted image shows its progress and can be cancelled", async () => {
      await page.goto("/dashboard/blogs/new");
      await page.getByLabel("Title", { exact: true }).fill(`Pictures ${run}`);
      await content.fill(before + after);
      await setCaret(content, before.length);
      // Held unanswered, so the upload is seen on its way.
      await page.route("**/api/trpc/images.upload", () => {});
      await dispatchImage(content, "paste", await pngBytes(1200, 800, "#1d4ed8"), "held.png");
      const progress = page.getByRole("progressbar", { name: /held\.png/ });
      await expect(progress).toBeVisible();
      await expectAccessible(page, "upload in progress");
      await shot("01-upload-in-progress");
      await page.getByRole("button", { name: "Cancel upload" }).click();
      await expect(page.getByRole("status").filter({ hasText: "Upload cancelled." })).toBeVisible();
      await expect(progress).toHaveCount(0);
      await page.unrouteAll({ behavior: "ignoreErrors" });
      await expectMarkdown(content, before + after);
    });

    await test.step("a pasted image goes where the caret was, once its alt text is given", async () => {
      await dispatchImage(content, "paste", await pngBytes(1200, 800, "#1d4ed8"), "blue.png");
      const dialog = page.getByRole("dialog", { name: "Describe the image" });
      await expect(dialog).toBeVisible();
      await expectAccessible(page, "alt text dialog");
      await shot("02-alt-text-dialog");
      await dialog.getByRole("button", { name: "Insert image" }).click();
      await expect(dialog.getByText("Describe the image, or tick “Decorative image”.")).toBeVisible();
      await dialog.getByLabel("Alt text", { exact: true }).fill("A blue rectangle");
      await dialog.getByRole("button", { name: "Insert image" }).click();
      await expect(dialog).toHaveCount(0);
      const value = await markdownOf(content);
      const inserted = /^Before the picture\.\n\n!\[A blue rectangle\]\(\/images\/([a-z0-9]+)\/1200x800\.png\)\n\nAfter the picture\.$/.exec(value);
      expect(inserted, value).not.toBeNull();
      imageId = inserted![1]!;
      // The caret follows the image.
      await expect(content).toBeFocused();
      expect(await caretOf(content)).toBe(value.length - after.length);
    });

    await test.step("a dropped image marked decorative gets empty alt text", async () => {
      const end = (await markdownOf(content)).length;
      await setCaret(content, end);
      await dispatchImage(content, "drop", await pngBytes(300, 200, "#b91c1c"), "red.png");
      const dialog = page.getByRole("dialog", { name: "Describe the image" });
      await dialog.getByLabel("Decorative image", { exact: true }).check();
      await expect(dialog.getByLabel("Alt text", { exact: true })).toBeDisabled();
      await dialog.getByRole("button", { name: "Insert image" }).click();
      await expect(dialog).toHaveCount(0);
      const decorative = /!\[\]\(\/images\/([a-z0-9]+)\/300x200\.png\)$/.exec(await markdownOf(content));
      expect(decorative).not.toBeNull();
      decorativeId = decorative![1]!;
    });

    await test.step("the preview shows the image", async () => {
      await showPreview(page);
      const shown = page.getByTestId("markdown-preview").getByRole("img", { name: "A blue rectangle" });
      await expect(shown).toBeVisible();
      await expect.poll(() => shown.evaluate((image) => (image as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
      await showEditor(page);
    });

    const wide = viewport.width >= 1024;
    await test.step("a cover chosen from the account's images", async () => {
      const settings = await openSettings(page);
      await settings.getByRole("button", { name: "Choose cover" }).click();
      const dialog = page.getByRole("dialog", { name: "Choose a cover image" });
      await expect(dialog.getByRole("list", { name: "Your images" }).getByRole("listitem")).toHaveCount(2);
      await expectAccessible(page, "cover picker");
      await shot("03-cover-picker");
      await dialog.getByRole("button", { name: /^Choose 1200×800 PNG/ }).click();
      await expect(dialog).toHaveCount(0);
      await expect(settings.getByTestId("cover-image")).toContainText("1200×800 PNG");
      await expect(settings.getByRole("button", { name: "Change cover" })).toBeFocused();
      await noOverflow();
      if (!wide) await settings.getByRole("button", { name: "Close" }).click();
    });

    let publicPath = "";
    let editPath = "";
    await test.step("saved public, the blog shows both images and the cover on its public page", async () => {
      await publishNow(page);
      await expect(page).toHaveURL(/\/dashboard\/blogs\/(?!new$)[^/?]+$/);
      const settings = await openSettings(page);
      await expect(settings.getByTestId("cover-image")).toContainText("1200×800 PNG");
      await expectAccessible(page, "edit page with a cover");
      await shot("04-edit-page");
      if (!wide) await settings.getByRole("button", { name: "Close" }).click();
      editPath = new URL(page.url()).pathname;
      publicPath = (await page.getByRole("link", { name: /View public page/ }).getAttribute("href"))!;

      await page.goto(publicPath);
      const shown = page.getByRole("img", { name: "A blue rectangle" });
      await expect(shown).toBeVisible();
      await expect(shown).toHaveAttribute("srcset", new RegExp(`/images/${imageId}/480w\\.png 480w`));
      await expect.poll(() => shown.evaluate((image) => (image as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
      await expect(page.locator(`img[alt=""][src*="/images/${decorativeId}/"]`)).toHaveCount(1);
      // The cover, above the title: the same image, decorative there.
      await expect(page.locator(`picture.cover img[alt=""][src*="/images/${imageId}/"]`)).toHaveCount(1);
    });

    await test.step("the Images page: a grid with the image's details, Copy URL and Copy Markdown", async () => {
      await page.goto("/dashboard/images");
      await expect(page.getByText("2 images")).toBeVisible();
      const card = page.getByTestId(`image-${imageId}`);
      await expect(card).toContainText("1200×800 PNG");
      await expectCopied(page, card, "Copy URL", `${new URL(page.url()).origin}/images/${imageId}/1200x800.png`);
      await expectCopied(page, card, "Copy Markdown", `![alt text](/images/${imageId}/1200x800.png)`);
      await expectAccessible(page, "images page");
      await shot("05-images-page");
      await noOverflow();
    });

    await test.step("the Usage page: storage used of the plan's", async () => {
      await page.getByRole("link", { name: "Usage", exact: true }).click();
      await expect(page.getByTestId("image-storage")).toContainText(/^[\d.]+ kB of 100 MB/);
      await expect(page.getByRole("meter", { name: "Image storage" })).toBeVisible();
      await expectAccessible(page, "usage page with storage");
      await shot("06-usage-storage");
    });

    await test.step("deleting an image a blog shows: warned, with the blog named, deleted once the owner chooses to", async () => {
      await page.getByRole("link", { name: "Images", exact: true }).click();
      await page.getByTestId(`image-${imageId}`).getByRole("button", { name: "Delete" }).click();
      const dialog = page.getByRole("dialog", { name: "Delete this image?" });
      await expect(dialog).toContainText("1 image is used by blogs");
      await expect(dialog.getByRole("link", { name: `Pictures ${run}` })).toBeVisible();
      await expect(dialog).toContainText("(cover and content)");
      await expectAccessible(page, "deletion warning");
      await shot("07-deletion-warning");
      await dialog.getByLabel(/Delete the images in use too/).check();
      await dialog.getByRole("button", { name: "Delete image" }).click();
      await expect(dialog).toHaveCount(0);
      await expect(page.getByTestId(`image-${imageId}`)).toHaveCount(0);
      await expect(page.getByText("1 image", { exact: true })).toBeVisible();
      await expect(page.getByRole("heading", { level: 1, name: "Images" })).toBeFocused();
    });

    await test.step("the Images page a page at a time", async () => {
      for (let i = 0; i < 12; i++) await uploadImage(page, await pngBytes(40 + i, 30, "#64748b"));
      await page.reload();
      // The cards, not the lists of blogs using an image inside them.
      const cards = page.getByRole("list", { name: "Your images" }).getByRole("listitem").filter({ has: page.getByRole("checkbox") });
      await expect(cards).toHaveCount(12);
      const pages = page.getByRole("navigation", { name: "Pages" });
      await expect(pages).toContainText("Page 1 of 2");
      await pages.getByRole("button", { name: "Next" }).click();
      await expect(pages).toContainText("Page 2 of 2");
      await expect(cards).toHaveCount(1);
      await expect(page.getByTestId(`image-${decorativeId}`)).toBeVisible();
      await noOverflow();
    });

    await test.step("Upload image puts the image on lines of its own: after the text when no caret was placed, else at the caret", async () => {
      await page.goto(editPath);
      const saved = await markdownOf(content);
      const chooseAndDescribe = async (color: string, alt: string) => {
        const chooser = page.waitForEvent("filechooser");
        await page.getByRole("button", { name: "Upload image", exact: true }).click();
        await (await chooser).setFiles({ name: `${alt}.png`, mimeType: "image/png", buffer: await pngBytes(60, 40, color) });
        const dialog = page.getByRole("dialog", { name: "Describe the image" });
        await dialog.getByLabel("Alt text", { exact: true }).fill(alt);
        await dialog.getByRole("button", { name: "Insert image" }).click();
        await expect(dialog).toHaveCount(0);
      };
      await chooseAndDescribe("#15803d", "Green");
      const afterText = await markdownOf(content);
      expect(afterText.slice(0, saved.length + 2)).toBe(`${saved}\n\n`);
      expect(afterText.slice(saved.length + 2)).toMatch(/^!\[Green\]\(\/images\/[a-z0-9]+\/60x40\.png\)$/);
      // At the very start of a heading: the heading stays a heading.
      await content.fill("# A heading");
      await setCaret(content, 0);
      await chooseAndDescribe("#7e22ce", "Purple");
      expect(await markdownOf(content)).toMatch(/^!\[Purple\]\(\/images\/[a-z0-9]+\/60x40\.png\)\n\n# A heading$/);
    });

    expect(problems).toEqual([]);
    await context.close();
  });
}
