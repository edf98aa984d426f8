import { expect, test } from "@playwright/test";

test("the home page links to the API's OpenAPI document", async ({ page }, testInfo) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1, name: "Your blogs, in the browser and over an API." })).toBeVisible();
  await expect(page.getByRole("link", { name: "Sign in" })).toBeVisible();
  await page.getByRole("link", { name: "/api/v1/openapi.json" }).click();
  await expect(page.locator("body")).toContainText('"openapi"');
  await page.screenshot({ path: testInfo.outputPath("openapi.png") });
});
