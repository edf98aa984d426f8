import { expect, type Page } from "@playwright/test";

export const PASSWORD = "correct-horse-battery";

/** Creates the account through the sign-up form; the new owner lands on the dashboard. */
export async function signUp(page: Page, account: { name: string; handle: string; email: string }): Promise<void> {
  await page.goto("/sign-up");
  await page.getByLabel("Name", { exact: true }).fill(account.name);
  await page.getByLabel("Handle", { exact: true }).fill(account.handle);
  await page.getByLabel("Email", { exact: true }).fill(account.email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  // The first sign-up of a freshly started server can be slow on a loaded machine.
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 30_000 });
}
