import { expect, test, type Page } from "@playwright/test";
import { PASSWORD, publishNow, signUp, submitWaitingOutLimit } from "./support";

/**
 * The Content-Security-Policy in a real browser (README, Security): sign-up, sign-in, the
 * dashboard, the API reference with a "Try it" request, and a public blog page all work with zero
 * CSP violations, "Try it" calls this server's /api/v1, and injected markup cannot run script.
 */

const run = Date.now().toString(36);
const owner = { name: "Csp Owner", handle: `csp-${run}`, email: `csp-${run}@example.test` };

/** Every CSP violation the page reports, as DOM events and as console messages. */
function recordViolations(page: Page): string[] {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(`console: ${message.text()}`);
  });
  page.on("pageerror", (error) => violations.push(`pageerror: ${error.message}`));
  void page.exposeFunction("reportCspViolation", (text: string) => violations.push(`event: ${text}`));
  void page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      (window as unknown as { reportCspViolation(text: string): void }).reportCspViolation(
        `${location.pathname}: ${event.violatedDirective} blocked ${event.blockedURI || "inline"} at ${event.sourceFile}:${event.lineNumber}`,
      );
    });
  });
  return violations;
}

test("sign-up, sign-in, dashboard, API reference and a public page run under the CSP without a violation", async ({ page }) => {
  test.setTimeout(180_000);
  const violations = recordViolations(page);

  await test.step("sign up, sign out, sign in", async () => {
    await signUp(page, owner);
    await page.context().clearCookies();

    await page.goto("/dashboard/keys");
    await expect(page).toHaveURL(/\/sign-in\?next=/);
    await page.getByLabel("Email", { exact: true }).fill(owner.email);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await submitWaitingOutLimit(page, "Sign in", "/api/auth/sign-in/email");
    // Which dashboard page sign-in returns to is the sign-in tests' business.
    await expect(page).toHaveURL(/\/dashboard/, { timeout: 30_000 });
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  });

  await test.step("dashboard pages, navigated on the client", async () => {
    for (const link of ["API keys", "Usage", "Blogs"]) {
      await page.getByRole("link", { name: link, exact: true }).click();
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    }
    await page.getByRole("link", { name: "New blog" }).click();
    await page.getByLabel("Title", { exact: true }).fill("Under a policy");
    await page.getByLabel("Content (Markdown)", { exact: true }).fill("## Allowed\n\n<script>window.pwned = true</script>\n");
    await publishNow(page);
  });

  await test.step("the API reference renders, and Try it calls this server", async () => {
    await page.goto("/dashboard/api");
    const origin = new URL(page.url()).origin;
    await expect(page.getByTestId("api-base-url")).toHaveText(`${origin}/api/v1`);
    const reference = page.getByTestId("api-reference");
    await expect(reference.getByRole("heading", { name: "List blogs" })).toBeVisible({ timeout: 30_000 });
    await page.waitForLoadState("networkidle");
    await tryListBlogs(page, origin);
  });

  await test.step("the public blog page", async () => {
    await page.goto(`/${owner.handle}/under-a-policy`);
    await expect(page.getByRole("heading", { name: "Allowed" })).toBeVisible();
    await page.waitForLoadState("networkidle");
    expect(await page.evaluate(() => (window as unknown as { pwned?: boolean }).pwned)).toBeUndefined();
  });

  expect(violations).toEqual([]);

  await test.step("markup injected into the page cannot run script", async () => {
    await page.evaluate(() => {
      document.body.insertAdjacentHTML("beforeend", `<img src="/no-such-image" onerror="window.injected = true">`);
    });
    await expect.poll(() => violations.some((v) => v.includes("script-src"))).toBe(true);
    expect(await page.evaluate(() => (window as unknown as { injected?: boolean }).injected)).toBeUndefined();
  });
});

/** Scalar's "Test Request" of List blogs, sent without a key: the 401 must come from this origin. */
async function tryListBlogs(page: Page, origin: string): Promise<void> {
  await page.getByRole("button", { name: /Test Request/i }).first().click();
  const sent = page.waitForRequest((request) => new URL(request.url()).pathname === "/api/v1/blogs");
  await page.getByRole("button", { name: /Send Request/i }).click();
  const request = await sent;
  expect(new URL(request.url()).origin).toBe(origin);
  expect((await request.response())?.status()).toBe(401);
  await expect(page.getByText('"MISSING_API_KEY"')).toBeVisible();
}
