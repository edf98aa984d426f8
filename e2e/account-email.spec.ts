import { expect, test } from "@playwright/test";
import { waitForLink } from "../tests/support/mailbox";
import { axeViolations, PASSWORD, signUp, submitWaitingOutLimit, VIEWPORTS } from "./support";

/**
 * The pages of the account emails (docs/security.md, Email), at a phone's and a laptop's width,
 * each passing axe-core: the dashboard's banner for an unconfirmed address with Resend, the refusal
 * of a key until then, the confirmation once its link is followed; "Forgot password?", the page
 * asking the address, and the emailed link's page setting a new password.
 */
for (const viewport of VIEWPORTS) {
  test(`verification banner, forgot and reset password pages at ${viewport.width}×${viewport.height}`, async ({ browser }) => {
    test.setTimeout(120_000);
    const context = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height } });
    const page = await context.newPage();
    const shot = (name: string) => page.screenshot({ path: `test-results/account-email-${viewport.name}-${name}.png`, fullPage: true });
    const found: Record<string, string[]> = {};
    const scan = async (label: string) => {
      const problems = await axeViolations(page);
      if (problems.length > 0) found[label] = problems;
    };
    const run = `${viewport.name}-${Date.now().toString(36)}`;
    const owner = { name: "Mail Owner", handle: `mail-${run}`, email: `mail-${run}@example.test` };

    await test.step("an unconfirmed owner sees the banner, sends the link again, and cannot create a key yet", async () => {
      await signUp(page, owner, { verify: false });
      const banner = page.getByRole("region", { name: "Email confirmation" });
      await expect(banner).toContainText(`we sent a link to ${owner.email}`);
      await scan("dashboard, unconfirmed");
      await banner.getByRole("button", { name: "Resend the link" }).click();
      await expect(banner.getByRole("status")).toHaveText(`Sent. Check ${owner.email} for the new link.`);
      await waitForLink(owner.email, 2);
      await shot("01-banner-resent");

      await page.getByRole("link", { name: "API keys", exact: true }).click();
      await page.getByLabel("Name", { exact: true }).fill("too soon");
      await page.getByRole("button", { name: "Create key" }).click();
      await expect(page.getByRole("alert").filter({ hasText: `Confirm your email address before creating API keys or webhook endpoints: follow the link emailed to ${owner.email}` })).toBeVisible();
      await shot("02-key-refused");
    });

    await test.step("the emailed link confirms the address: the dashboard says so, the banner is gone", async () => {
      const { link } = await waitForLink(owner.email, 2);
      await page.goto(link);
      await expect(page).toHaveURL(/\/dashboard\?verified=1$/);
      await expect(page.getByRole("status").filter({ hasText: "Your email address is confirmed." })).toBeVisible();
      await expect(page.getByRole("region", { name: "Email confirmation" })).toHaveCount(0);
      await scan("dashboard, confirmed");
      await shot("03-confirmed");
    });

    await test.step("Forgot password? asks the address, emails a link; its page sets a new password", async () => {
      await context.clearCookies();
      await page.goto("/sign-in");
      await page.getByRole("link", { name: "Forgot password?" }).click();
      await expect(page).toHaveURL(/\/forgot-password$/);
      await scan("forgot password");
      await page.getByLabel("Email", { exact: true }).fill("not an address");
      await page.getByRole("button", { name: "Send the link" }).click();
      await expect(page.getByText("Enter a valid email address.")).toBeVisible();
      await page.getByLabel("Email", { exact: true }).fill(owner.email);
      await page.getByRole("button", { name: "Send the link" }).click();
      await expect(page.getByRole("status")).toContainText(`If ${owner.email} has an account, we sent it a link`);
      await scan("forgot password, sent");
      await shot("04-forgot-sent");

      const { link } = await waitForLink(owner.email, 3);
      await page.goto(link);
      await scan("reset password");
      await page.getByLabel("New password").fill("short");
      await page.getByRole("button", { name: "Set the new password" }).click();
      await expect(page.getByText("The password must be at least 8 characters.")).toBeVisible();
      await page.getByLabel("New password").fill(`new-${PASSWORD}`);
      await page.getByRole("button", { name: "Set the new password" }).click();
      await expect(page.getByRole("status")).toContainText("Your password is changed and every session was signed out.");
      await scan("reset password, done");
      await shot("05-reset-done");

      await page.goto(link);
      await page.getByLabel("New password").fill(`again-${PASSWORD}`);
      await page.getByRole("button", { name: "Set the new password" }).click();
      await expect(page.getByText("This reset link has expired or was already used. Ask for a new one.")).toBeVisible();

      await page.goto("/sign-in");
      await page.getByLabel("Email", { exact: true }).fill(owner.email);
      await page.getByLabel("Password", { exact: true }).fill(`new-${PASSWORD}`);
      await submitWaitingOutLimit(page, "Sign in", "/api/auth/sign-in/email");
      await expect(page).toHaveURL(/\/dashboard$/);
    });

    await context.close();
    expect(found).toEqual({});
  });
}
