import { expect, test, type Page } from "@playwright/test";

export const PASSWORD = "correct-horse-battery";

/** Creates the account through the sign-up form; the new owner lands on the dashboard. */
export async function signUp(page: Page, account: { name: string; handle: string; email: string }): Promise<void> {
  await page.goto("/sign-up");
  await page.getByLabel("Name", { exact: true }).fill(account.name);
  await page.getByLabel("Handle", { exact: true }).fill(account.handle);
  await page.getByLabel("Email", { exact: true }).fill(account.email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  // The browser specs sign up more owners a minute than one address may (docs/security.md): a
  // refused sign-up waits for the next window and tries again, as a person would.
  for (let attempt = 1; ; attempt++) {
    const answer = page.waitForResponse((response) => response.url().includes("/api/auth/sign-up/email"), { timeout: 30_000 });
    await page.getByRole("button", { name: "Create account" }).click();
    if ((await answer).status() !== 429 || attempt === 4) break;
    test.info().setTimeout(test.info().timeout + 25_000);
    await page.waitForTimeout(20_000);
  }
  // The first sign-up of a freshly started server can be slow on a loaded machine.
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 30_000 });
}
