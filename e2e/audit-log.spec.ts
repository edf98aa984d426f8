import { readFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import { expectAccessible, publishNow, signUp, VIEWPORTS, writeDraft } from "./support";

/**
 * The Audit log page (docs/audit-log.md): the owner's own changes in the dashboard, listed newest
 * first with who made them and which fields; filtered by what and who (an actor chosen from a
 * row), by dates; downloaded as CSV. On a phone and on a laptop; screenshots into docs/screenshots/.
 */

for (const size of VIEWPORTS) {
  test(`audit log on a ${size.name} (${size.width} px)`, async ({ page }) => {
    test.setTimeout(180_000);
    await page.setViewportSize({ width: size.width, height: size.height });
    const run = `${size.name}-${Date.now().toString(36)}`;
    await signUp(page, { name: "Avery Audit", handle: `avery-${run}`, email: `avery-${run}@example.test` });
    await writeDraft(page, "Audited post", "Written to be recorded.");
    await publishNow(page);

    const table = page.getByRole("table", { name: "Audit log" });
    await test.step("the owner's changes, newest first, by the member", async () => {
      await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Audit log" }).click();
      await expect(page.getByRole("heading", { name: "Audit log", level: 1 })).toBeVisible();
      await expect(table.getByRole("row", { name: /Avery Audit blog\.published/ })).toBeVisible({ timeout: 30_000 });
      await expect(table.getByRole("row", { name: /Avery Audit blog\.created/ })).toBeVisible();
      await expectAccessible(page, "Audit log");
      await page.screenshot({ path: `docs/screenshots/audit-log-${size.width}.png`, fullPage: true, animations: "disabled" });
    });

    await test.step("filtered by what, by who, by dates", async () => {
      await page.getByLabel("What").selectOption("blog");
      await expect(table.getByRole("row", { name: /publication\.|member\./ })).toHaveCount(0);
      await expect(table.getByRole("row", { name: /blog\.created/ })).toBeVisible();
      await page.getByLabel("Who").selectOption("api_key");
      await expect(page.getByText("No entry matches")).toBeVisible();
      await expectAccessible(page, "Audit log, nothing matches");
      await page.getByRole("button", { name: "Clear filters" }).click();
      await page.getByRole("button", { name: "Only changes by Avery Audit" }).first().click();
      await expect(page.getByLabel("Who")).toHaveValue("one");
      await expect(table.getByRole("row", { name: /Database|Job|API key/ })).toHaveCount(0);
      await page.getByLabel("To").fill("2020-01-01");
      await expect(page.getByText("No entry matches")).toBeVisible();
      await page.getByRole("button", { name: "Clear filters" }).click();
      await expect(table.getByRole("row", { name: /blog\.created/ })).toBeVisible();
    });

    await test.step("downloaded as CSV", async () => {
      await page.getByLabel("What").selectOption("blog");
      const download = page.waitForEvent("download");
      await page.getByRole("button", { name: "Download CSV" }).click();
      const file = await download;
      expect(file.suggestedFilename()).toMatch(/^audit-log-\d{4}-\d{2}-\d{2}\.csv$/);
      const lines = (await readFile(await file.path(), "utf8")).trim().split("\n");
      expect(lines[0]).toBe("id,at,actor_kind,actor_id,actor_name,action,target_type,target_id,ip,user_agent,request_id,changed_fields");
      expect(lines.slice(1).every((line) => line.includes(",blog.") && line.includes("member,"))).toBe(true);
      expect(lines.some((line) => line.includes("blog.published"))).toBe(true);
    });
  });
}
