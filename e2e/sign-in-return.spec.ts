import { expect, test } from "@playwright/test";
import { postWaitingOutLimit, submitWaitingOutLimit } from "./support";

/**
 * After signing in, the owner lands on the dashboard page they asked for, and never off the
 * site. The return to /dashboard/keys needs the proxy (src/proxy.ts), which tells the
 * dashboard's layout which page was asked for.
 */

const PASSWORD = "correct-horse-battery";
const run = Date.now().toString(36);
const owner = { name: "Rita Return", handle: `rita-${run}`, email: `rita-${run}@example.test` };

test("a signed-out owner asking for /dashboard/keys signs in and lands there; a crafted next stays on the site", async ({ page, request, baseURL }) => {
  const signUp = await postWaitingOutLimit(request, "/api/auth/sign-up/email", {
    data: { ...owner, password: PASSWORD },
    headers: { origin: new URL(baseURL!).origin },
  });
  expect(signUp.status()).toBe(200);

  await page.goto("/dashboard/keys");
  await expect(page).toHaveURL(/\/sign-in\?next=%2Fdashboard%2Fkeys$/);
  await page.getByLabel("Email", { exact: true }).fill(owner.email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await submitWaitingOutLimit(page, "Sign in", "/api/auth/sign-in/email");
  await expect(page).toHaveURL(/\/dashboard\/keys$/);

  await page.goto(`/sign-in?next=${encodeURIComponent("/\\evil.example")}`);
  await expect(page).toHaveURL(/\/dashboard$/);
  expect(new URL(page.url()).origin).toBe(new URL(baseURL!).origin);
});
