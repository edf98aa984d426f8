import { expect, test } from "@playwright/test";

test("the home page links to the API's OpenAPI document", async ({ page }, testInfo) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Blog Manager" })).toBeVisible();
  await page.getByRole("link", { name: "/api/v1/openapi.json" }).click();
  await expect(page.locator("body")).toContainText('"openapi"');
  await page.screenshot({ path: testInfo.outputPath("openapi.png") });
});
