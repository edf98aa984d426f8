import { readFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import { expectAccessible, signUp, VIEWPORTS } from "./support";

/**
 * The Subscribers page (docs/dashboard.md): add an address, import a Mailchimp export and read the
 * report, search, filter by status, export, and erase an address after confirming. On a phone and
 * on a laptop, light and dark.
 */

const MAILCHIMP = [
  "Email Address,First Name,Last Name,MEMBER_RATING,OPTIN_TIME,UNSUB_TIME",
  "mia@example.com,Mia,Moss,2,2024-01-01 10:00:00,",
  "noah@example.org,Noah,,2,2024-01-02 10:00:00,",
  "not-an-address,Bad,,1,,",
  "olga@example.com,Olga,,1,2024-01-03 10:00:00,2024-04-01 10:00:00",
  "MIA@example.com,Mia again,,2,,",
].join("\n");

for (const size of VIEWPORTS) {
  test(`subscribers on a ${size.name} (${size.width} px)`, async ({ page }) => {
    test.setTimeout(180_000);
    await page.setViewportSize({ width: size.width, height: size.height });
    const run = `${size.name}-${Date.now().toString(36)}`;
    await signUp(page, { name: "Sam Subscribers", handle: `sam-${run}`, email: `sam-${run}@example.test` });
    await page.getByRole("link", { name: "Subscribers", exact: true }).click();
    await expect(page.getByRole("heading", { name: "Subscribers", level: 1 })).toBeVisible();
    await expect(page.getByText("No subscribers yet")).toBeVisible({ timeout: 30_000 });
    await expectAccessible(page, "Subscribers, empty");

    await test.step("add one address", async () => {
      await page.getByRole("button", { name: "Add subscriber" }).click();
      const dialog = page.getByRole("dialog", { name: "Add a subscriber" });
      await dialog.getByLabel("Email address").fill("not an address");
      await dialog.getByRole("button", { name: "Add", exact: true }).click();
      await expect(dialog.getByText("email must be a valid email address")).toBeVisible();
      await expectAccessible(page, "Add subscriber, refused");
      await dialog.getByLabel("Email address").fill("Lea@Example.com");
      await dialog.getByLabel("Name").fill("Lea");
      await dialog.getByRole("button", { name: "Add", exact: true }).click();
      await expect(page.getByRole("status").filter({ hasText: "Added lea@example.com." })).toBeVisible();
      await expect(page.getByRole("table", { name: "Subscribers" }).getByRole("row", { name: /lea@example\.com Lea Active/ })).toBeVisible();
    });

    await test.step("import a Mailchimp export and read the report", async () => {
      await page.getByRole("button", { name: "Import CSV" }).click();
      const dialog = page.getByRole("dialog", { name: "Import subscribers" });
      await dialog.getByLabel("CSV file").setInputFiles({ name: "mailchimp.csv", mimeType: "text/csv", buffer: Buffer.from(MAILCHIMP) });
      await dialog.getByRole("button", { name: "Import", exact: true }).click();
      const report = dialog.getByTestId("import-report");
      await expect(report).toContainText("Read as Mailchimp export.");
      await expect(report).toContainText("2 added as active");
      await expect(report).toContainText("1 added as unsubscribed");
      await expect(report).toContainText("2 skipped");
      const skipped = dialog.getByRole("table", { name: "Skipped rows" });
      await expect(skipped.getByRole("row", { name: "4 not-an-address invalid address" })).toBeVisible();
      await expect(skipped.getByRole("row", { name: "6 mia@example.com duplicate in file" })).toBeVisible();
      await expectAccessible(page, "Import report");
      await dialog.getByRole("button", { name: "Done" }).click();
      await expect(page.getByRole("definition").filter({ hasText: /^4 of 1,000 on your plan$/ })).toBeVisible();
      // An address already there, unsubscribed, is left as it is.
      await page.getByRole("button", { name: "Add subscriber" }).click();
      const add = page.getByRole("dialog", { name: "Add a subscriber" });
      await add.getByLabel("Email address").fill("OLGA@example.com");
      await add.getByRole("button", { name: "Add", exact: true }).click();
      await expect(page.getByRole("status").filter({ hasText: "olga@example.com was already on your list (unsubscribed); it was left as it is." })).toBeVisible();
    });

    await test.step("search and filter", async () => {
      const table = page.getByRole("table", { name: "Subscribers" });
      await page.getByLabel("Search subscribers").fill("EXAMPLE.ORG");
      await expect(table.getByRole("row")).toHaveCount(2);
      await expect(table.getByRole("row", { name: /noah@example\.org/ })).toBeVisible();
      await page.getByLabel("Search subscribers").fill("");
      await page.getByLabel("Status").selectOption("unsubscribed");
      await expect(table.getByRole("row")).toHaveCount(2);
      await expect(table.getByRole("row", { name: /olga@example\.com Olga Unsubscribed/ })).toBeVisible();
      await page.getByLabel("Status").selectOption("");
      await expect(table.getByRole("row")).toHaveCount(5);
      await expectAccessible(page, "Subscribers, listed");
      await page.screenshot({ path: `docs/screenshots/subscribers-${size.width}.png`, fullPage: true, animations: "disabled" });
    });

    await test.step("export the list as CSV", async () => {
      const download = page.waitForEvent("download");
      await page.getByRole("button", { name: "Export CSV" }).click();
      const file = await download;
      expect(file.suggestedFilename()).toMatch(/^subscribers-\d{4}-\d{2}-\d{2}\.csv$/);
      const lines = (await readFile(await file.path(), "utf8")).trim().split("\n");
      expect(lines[0]).toBe("email,name,status,source,created_at,confirmed_at,unsubscribed_at");
      expect(lines).toHaveLength(5);
    });

    await test.step("delete an address after confirming", async () => {
      await page.getByRole("button", { name: "Delete noah@example.org" }).click();
      const dialog = page.getByRole("dialog", { name: "Delete this subscriber?" });
      await expect(dialog).toContainText("noah@example.org is erased");
      await expectAccessible(page, "Delete subscriber");
      await dialog.getByRole("button", { name: "Delete" }).click();
      await expect(dialog).toBeHidden();
      await expect(page.getByRole("table", { name: "Subscribers" }).getByRole("row", { name: /noah@example\.org/ })).toHaveCount(0);
      await expect(page.getByRole("heading", { name: "Your subscribers" })).toBeFocused();
    });
  });
}
