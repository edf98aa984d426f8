import { expect, test, type Page } from "@playwright/test";
import { collectProblems, PASSWORD, signUp, submitWaitingOutLimit } from "./support";

/**
 * The usage page's budget warning, reset time, next plan and date range; then the account
 * settings page, from a rename to the account's deletion; on a laptop and on a phone.
 */

const SIZES = [
  { name: "laptop", viewport: { width: 1280, height: 800 } },
  { name: "phone", viewport: { width: 390, height: 844 } },
] as const;

async function expectNoOverflow(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
}

for (const size of SIZES) {
  test.describe(`usage and account on a ${size.name}`, () => {
    test.use({ viewport: size.viewport });

    test(`usage warnings and range, account settings (${size.viewport.width}×${size.viewport.height})`, async ({ page, request }) => {
      test.setTimeout(240_000);
      const run = `${size.name}-${Date.now().toString(36)}`;
      const owner = { name: "Una Usage", handle: `una-${run}`, email: `una-${run}@example.test` };
      // Refusals the test provokes: a reversed range, a wrong password, a deletion not confirmed.
      const problems = collectProblems(page, (url) => /\/api\/trpc\/usage\.analytics|\/api\/auth\/change-password/.test(url));
      const shot = (name: string) => page.screenshot({ path: `test-results/usage-account-${size.name}-${name}.png`, fullPage: true });

      await signUp(page, owner);
      let key = "";
      await test.step("a key of the free plan spends 85% of the hour's budget", async () => {
        await page.getByRole("link", { name: "API keys", exact: true }).click();
        await page.getByLabel("Name", { exact: true }).fill("load");
        await page.getByRole("button", { name: "Create key" }).click();
        key = await page.getByTestId("new-api-key").inputValue();
        await page.getByRole("button", { name: "I have stored the key" }).click();
        for (let i = 0; i < 85; i++) await request.get("/api/v1/blogs", { headers: { "x-api-key": key } });
      });

      await test.step("the usage page warns from 80%, says when the window resets and what the next plan gives", async () => {
        await page.getByRole("link", { name: "Usage", exact: true }).click();
        const warning = page.getByTestId("usage-warning");
        await expect(warning).toContainText("85% of this hour's budget is used");
        await expect(warning).toContainText(/resets in \d+ min/);
        await expect(page.getByTestId("usage-reset")).toContainText(/in \d+ min/);
        await expect(page.getByTestId("usage-next-plan")).toContainText("Pro would give 1,000 requests an hour");
        await expect(page.getByText("those refused before it (a missing permission, 403)")).toBeVisible();
        await expectNoOverflow(page);
        await shot("01-usage-warning");
      });

      await test.step("429s today are reported", async () => {
        for (let i = 0; i < 20; i++) await request.get("/api/v1/blogs", { headers: { "x-api-key": key } });
        await page.reload();
        await expect(page.getByTestId("usage-warning")).toContainText("5 requests were refused with 429");
        await shot("02-usage-429");
      });

      await test.step("a date range; a reversed one is pointed at its field", async () => {
        await page.getByLabel("From (UTC)").fill("2026-02-10");
        await page.getByLabel("To (UTC)").fill("2026-02-01");
        await page.getByRole("button", { name: "Show" }).click();
        await expect(page.getByLabel("From (UTC)")).toHaveAttribute("aria-invalid", "true");
        await expect(page.getByText("from (2026-02-10) must not be after to (2026-02-01)")).toBeVisible();
        await shot("03-usage-bad-range");
        await page.getByLabel("From (UTC)").fill("2026-01-01");
        await page.getByRole("button", { name: "Show" }).click();
        await expect(page.getByRole("heading", { name: "Requests per day, 2026-01-01 to 2026-02-01" })).toBeVisible();
        await page.getByRole("button", { name: "Last 30 days" }).click();
        await expect(page.getByTestId("usage-chart")).toHaveAttribute("aria-label", /105 in all/);
      });

      const newHandle = `una2-${run}`;
      await test.step("account: handle rules, then a new handle moves the public address", async () => {
        await page.getByRole("link", { name: "Account", exact: true }).click();
        await page.getByLabel("Handle", { exact: true }).fill("Bad_Handle");
        await page.getByRole("button", { name: "Save profile" }).click();
        await expect(page.getByText(/handle must be 3 to 30 characters/)).toBeVisible();
        await page.getByLabel("Handle", { exact: true }).fill(newHandle);
        await page.getByRole("button", { name: "Save profile" }).click();
        await expect(page.getByText(`Your public address is now /${newHandle}.`)).toBeVisible();
        await expect(page.getByRole("link", { name: `/${newHandle}` })).toBeVisible();
        await expectNoOverflow(page);
        await shot("04-account-profile");
      });

      await test.step("account: password needs the current one; email; other sessions", async () => {
        await page.getByLabel("Current password").fill("not-my-password");
        await page.getByLabel("New password").fill("a-new-password-1");
        await submitWaitingOutLimit(page, "Change password", "/api/auth/change-password");
        await expect(page.getByText("That is not your current password.")).toBeVisible();
        await page.getByLabel("Current password").fill(PASSWORD);
        await submitWaitingOutLimit(page, "Change password", "/api/auth/change-password");
        await expect(page.getByText("Password changed.")).toBeVisible();

        const newEmail = `una-moved-${run}@example.test`;
        await page.getByLabel("Email", { exact: true }).fill(newEmail);
        await page.getByLabel("Your password").fill("a-new-password-1");
        await submitWaitingOutLimit(page, "Change email", "/api/auth/change-email");
        await expect(page.getByText(`We sent a confirmation link to ${newEmail}.`, { exact: false })).toBeVisible();

        await page.getByRole("button", { name: "Sign out of other sessions" }).click();
        await expect(page.getByText("Every other session is signed out.")).toBeVisible();
        await shot("05-account-done");
      });

      await test.step("account: deletion takes the typed handle and the password; the key stops working", async () => {
        await page.getByLabel("Type your handle to confirm").fill("something else");
        await page.getByLabel("Password", { exact: true }).fill("a-new-password-1");
        await page.getByRole("button", { name: "Delete my account" }).click();
        await expect(page.getByText(`Type your handle, ${newHandle}, to confirm.`)).toBeVisible();
        await shot("06-account-delete-confirmation");
        await page.getByLabel("Type your handle to confirm").fill(newHandle);
        await submitWaitingOutLimit(page, "Delete my account", "/api/auth/delete-user");
        await expect(page).toHaveURL(/\/$/);
        const refused = await request.get("/api/v1/blogs", { headers: { "x-api-key": key } });
        expect(refused.status()).toBe(401);
      });

      expect(problems).toEqual([]);
    });
  });
}
