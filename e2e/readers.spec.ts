import { expect, test } from "@playwright/test";
import { expectAccessible, publishNow, signUp, VIEWPORTS, writeDraft } from "./support";

/**
 * The Readers page (docs/dashboard.md): empty at first; after a reader's browser opens the owner's
 * published post, coming from another site, it shows that view, the post and the referrer. On a
 * phone and on a laptop, light and dark.
 */

const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

for (const size of VIEWPORTS) {
  test(`readers' views on a ${size.name} (${size.width} px)`, async ({ page, request }) => {
    test.setTimeout(180_000);
    await page.setViewportSize({ width: size.width, height: size.height });
    const run = `${size.name}-${Date.now().toString(36)}`;
    const owner = { name: "Rhea Readers", handle: `rhea-${run}`, email: `rhea-${run}@example.test` };
    const shot = (name: string) => page.screenshot({ path: `test-results/readers-${size.name}-${name}.png`, fullPage: true });
    await signUp(page, owner);

    await test.step("no views yet: the empty state", async () => {
      await page.getByRole("link", { name: "Readers", exact: true }).click();
      await expect(page.getByRole("heading", { name: "Readers", level: 1 })).toBeVisible();
      await expect(page.getByTestId("readers-total")).toHaveText("0 views", { timeout: 30_000 });
      await expect(page.getByText("No views in this range").first()).toBeVisible();
      await expectAccessible(page, "Readers, empty");
      await shot("01-empty");
    });

    await test.step("a reader's browser opens the published post, from another site", async () => {
      await writeDraft(page, "Hello readers", "A post to be read.");
      await publishNow(page);
      // A script's request (not counted) finds the post's address on the index.
      const index = await (await request.get(`/${owner.handle}`, { headers: { "user-agent": "curl/8.5.0" } })).text();
      const path = new RegExp(`href="[^"]*(/${owner.handle}/[a-z0-9-]+)"`).exec(index)?.[1];
      expect(path).toBeTruthy();
      const read = await request.get(path!, { headers: { "user-agent": BROWSER, referer: "https://news.example.com/today" } });
      expect(read.status()).toBe(200);
    });

    await test.step("the Readers page shows the view, the post and the referrer", async () => {
      await page.goto("/dashboard/readers");
      // The first load of the page may be slow on a busy machine.
      await expect(page.getByTestId("readers-total")).toHaveText("1 view", { timeout: 30_000 });
      await expect(page.getByTestId("readers-chart")).toHaveAttribute("aria-label", /1 in all/);
      await expect(page.getByRole("table", { name: "Views by post" }).getByRole("row", { name: /Hello readers 1/ })).toBeVisible();
      await expect(page.getByRole("table", { name: "Views by referrer" }).getByRole("row", { name: /news\.example\.com 1/ })).toBeVisible();
      await page.getByText("The views per day as a table").click();
      const today = new Date().toISOString().slice(0, 10);
      await expect(page.getByRole("table", { name: "Views per day" }).getByRole("row", { name: `${today} 1` })).toBeVisible();
      await expectAccessible(page, "Readers, one view");
      await shot("02-one-view");
    });
  });
}
