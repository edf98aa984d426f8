import { randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import { expectAccessible, publishNow, signUp, VIEWPORTS, writeDraft } from "./support";

// The Publication page (docs/dashboard.md): settings, the live preview made by the public site's renderer, saving.
test("an owner names the publication, sees it in the preview before saving, saves, and readers see it", async ({ page }) => {
  test.setTimeout(420_000);
  const id = randomUUID().slice(0, 8);
  const handle = `pub-${id}`;
  await signUp(page, { name: "Pia Publisher", handle, email: `pub-${id}@example.test` });
  await writeDraft(page, "Hello, readers", "The first post of the publication.");
  await publishNow(page);

  await page.goto("/dashboard");
  await page.getByRole("link", { name: "Publication", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Publication", level: 1 })).toBeVisible();
  const title = page.getByLabel("Title", { exact: true });
  await expect(title).toHaveAttribute("placeholder", "Pia Publisher");
  const preview = page.frameLocator("iframe[title=\"Preview of your publication's home page\"]");
  await expect(preview.getByRole("heading", { level: 1 })).toHaveText("Pia Publisher");

  // The preview follows the typing, before anything is saved.
  await title.fill("Morning Edition");
  await expect(preview.getByRole("heading", { level: 1 })).toHaveText("Morning Edition");
  await expect(page.getByRole("status").filter({ hasText: "Unsaved changes" })).toBeVisible();
  expect(await (await page.request.get(`/${handle}`)).text()).not.toContain("Morning Edition");

  // An invalid accent colour is refused under its field, in the API's words.
  const accent = page.getByLabel("Accent colour", { exact: true });
  await accent.fill("#12");
  await page.getByRole("button", { name: "Save publication" }).click();
  await expect(accent).toHaveAttribute("aria-invalid", "true");
  await expect(accent).toHaveAccessibleDescription(/accentColor must be a colour as #rrggbb/);
  await expect(accent).toBeFocused();
  await accent.fill("#0f766e");
  await expect(accent).toHaveAccessibleDescription(/Readable in both schemes|Below 4.5:1/);

  await page.getByRole("button", { name: "Add link" }).click();
  await page.getByLabel("Label 1", { exact: true }).fill("About");
  await page.getByLabel("Address 1", { exact: true }).fill("/about");
  await page.getByRole("button", { name: "Add link" }).click();
  await page.getByLabel("Label 2", { exact: true }).fill("Archive");
  await page.getByLabel("Address 2", { exact: true }).fill("https://archive.example.com/");
  await page.getByRole("button", { name: "Move link 2 (Archive) up" }).click();
  await expect(page.getByLabel("Label 1", { exact: true })).toHaveValue("Archive");
  await page.getByLabel("Footer text", { exact: true }).fill("Thanks for *reading*.");
  await expect(page.getByText("21 / 1,000 characters")).toBeVisible();

  await page.getByRole("button", { name: "Save publication" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Publication saved" })).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "All changes saved" })).toBeVisible();
  const home = await (await page.request.get(`/${handle}`)).text();
  expect(home).toContain("<h1>Morning Edition</h1>");

  const saved = await page.request.get("/api/trpc/publication.get?input=%7B%7D");
  expect((await saved.json()).result.data.data.publication).toMatchObject({
    title: "Morning Edition",
    accentColor: "#0f766e",
    navigation: [
      { label: "Archive", url: "https://archive.example.com/" },
      { label: "About", url: "/about" },
    ],
    footer: "Thanks for *reading*.",
  });

  for (const viewport of VIEWPORTS) {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await page.reload();
    await expect(page.getByLabel("Title", { exact: true })).toHaveValue("Morning Edition");
    // Below 1280 px the preview waits behind its button.
    if (viewport.width >= 1280) await expect(preview.getByRole("heading", { level: 1 })).toHaveText("Morning Edition");
    await page.screenshot({ path: `docs/screenshots/publication-settings-${viewport.width}.png` });
    if (viewport.width < 1280) await page.getByRole("button", { name: "Show preview" }).click();
    await expect(preview.getByRole("heading", { level: 1 })).toHaveText("Morning Edition");
    // axe cannot run inside a frame sandboxed without scripts (Playwright's evaluate waits for ever):
    // the preview's document is checked in a page of its own, the settings page without the frame.
    const frame = page.locator("iframe[title=\"Preview of your publication's home page\"]");
    const previewHtml = (await frame.getAttribute("srcdoc"))!;
    await frame.evaluate((element) => element.remove());
    await expectAccessible(page, `Publication at ${viewport.width}`);
    const previewPage = await page.context().newPage();
    await previewPage.setViewportSize({ width: viewport.width, height: viewport.height });
    await previewPage.setContent(previewHtml);
    await expectAccessible(previewPage, `Publication preview at ${viewport.width}`);
    await previewPage.close();
  }
});
