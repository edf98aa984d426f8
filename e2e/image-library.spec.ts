import { expect, test, type Page } from "@playwright/test";
import { expectAccessible, pngBytes, signUp, uploadImage, VIEWPORTS } from "./support";

/**
 * The Images page as a library, at a phone's and a laptop's width: each image's file name and the
 * blogs using it (linked, cover or content); the "Unused" filter; several unused images deleted at
 * once; an image a blog uses refused until the owner chooses to delete it anyway. axe-core clean
 * with each state and dialog; screenshots of each.
 */

async function createBlog(page: Page, input: { title: string; content?: string; coverImage?: string }): Promise<string> {
  const response = await page.request.post("/api/trpc/blogs.create", { data: input, headers: { origin: new URL(page.url()).origin } });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()).result.data.data.blog.id;
}

for (const viewport of VIEWPORTS) {
  test(`the image library: names, uses, the Unused filter and bulk deletion at ${viewport.width}×${viewport.height}`, async ({ browser }) => {
    test.setTimeout(120_000);
    const context = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height } });
    const page = await context.newPage();
    const run = `${viewport.name}-${Date.now().toString(36)}`;
    await signUp(page, { name: "Libby Rary", handle: `lib-${run}`, email: `lib-${run}@example.test` });
    const shot = (name: string) => page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });
    const noOverflow = async () => expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);

    const harbour = await uploadImage(page, await pngBytes(1200, 800, "#0e7490"), "Harbour at dawn.png");
    const sketch = await uploadImage(page, await pngBytes(640, 480, "#a16207"), "sketch-draft.png");
    const spare = await uploadImage(page, await pngBytes(800, 600, "#4d7c0f"), "spare_photo_2026_with_a_rather_long_name.png");
    const coverTitle = `Cover story ${run}`;
    const contentTitle = `Inside story ${run}`;
    await createBlog(page, { title: coverTitle, coverImage: harbour.id });
    await createBlog(page, { title: contentTitle, content: `Intro\n\n![Harbour](${new URL(harbour.url).pathname})` });

    const cards = page.getByRole("list", { name: "Your images" }).getByRole("listitem").filter({ has: page.getByRole("checkbox") });
    const card = (image: { id: string }) => page.getByTestId(`image-${image.id}`);

    await test.step("each image shows its file name and where it is used", async () => {
      await page.goto("/dashboard/images");
      await expect(page.getByText("3 images", { exact: true })).toBeVisible();
      await expect(card(harbour)).toContainText("Harbour at dawn.png");
      await expect(card(harbour).getByRole("link", { name: coverTitle })).toHaveAttribute("href", /\/dashboard\/blogs\/[a-z0-9]+$/);
      await expect(card(harbour)).toContainText(`${coverTitle} (cover)`);
      await expect(card(harbour)).toContainText(`${contentTitle} (content)`);
      await expect(card(sketch)).toContainText("Not used by any blog");
      await expectAccessible(page, "image library");
      await noOverflow();
      await shot("01-library");
    });

    await test.step("Unused shows only the images no blog uses", async () => {
      await page.getByRole("button", { name: "Unused", exact: true }).click();
      await expect(page.getByRole("button", { name: "Unused", exact: true })).toHaveAttribute("aria-pressed", "true");
      await expect(page.getByText("2 unused images", { exact: true })).toBeVisible();
      await expect(cards).toHaveCount(2);
      await expect(card(harbour)).toHaveCount(0);
      await expectAccessible(page, "unused images");
      await shot("02-unused");
    });

    await test.step("several unused images deleted at once, after a confirmation", async () => {
      await card(sketch).getByRole("checkbox", { name: "Select sketch-draft.png" }).check();
      await card(spare).getByRole("checkbox").check();
      await expect(page.getByText("2 selected")).toBeVisible();
      await page.getByRole("button", { name: "Delete selected" }).click();
      const dialog = page.getByRole("dialog", { name: "Delete these 2 images?" });
      await expect(dialog).toContainText("No blog uses these 2 images.");
      await expectAccessible(page, "bulk deletion of unused images");
      await shot("03-bulk-unused");
      await dialog.getByRole("button", { name: "Delete 2 images" }).click();
      await expect(dialog).toHaveCount(0);
      await expect(page.getByText("No unused images")).toBeVisible();
      await expect(page.getByText("2 selected")).toHaveCount(0);
      await expect(page.getByRole("heading", { level: 1, name: "Images" })).toBeFocused();
    });

    await test.step("an image in use: the blogs named, refused unless the owner chooses to delete it anyway", async () => {
      await page.getByRole("button", { name: "All", exact: true }).click();
      await expect(page.getByText("1 image", { exact: true })).toBeVisible();
      await card(harbour).getByRole("checkbox", { name: "Select Harbour at dawn.png" }).check();
      await page.getByRole("button", { name: "Delete selected" }).click();
      const dialog = page.getByRole("dialog", { name: "Delete this image?" });
      await expect(dialog).toContainText("1 image is used by blogs");
      await expect(dialog.getByRole("link", { name: coverTitle })).toBeVisible();
      await expect(dialog.getByRole("link", { name: contentTitle })).toBeVisible();
      await dialog.getByRole("button", { name: "Delete image" }).click();
      await expect(dialog.getByRole("alert")).toHaveText("Nothing was deleted: images used by blogs are kept unless you choose to delete them too.");
      await expectAccessible(page, "in-use refusal");
      await shot("04-in-use-refused");
      const force = dialog.getByLabel(/Delete the images in use too/);
      await expect(dialog).toContainText("Covers using them are removed, and links to them in the blogs' content break");
      await force.check();
      await dialog.getByRole("button", { name: "Delete image" }).click();
      await expect(dialog).toHaveCount(0);
      await expect(page.getByText("No images yet")).toBeVisible();
      await noOverflow();
      await shot("05-all-deleted");
    });
    await context.close();
  });
}
