import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import pg from "pg";
import { collectProblems, signUp } from "./support";
import { runCli } from "../tests/support/cli";

/**
 * A key's life in the dashboard, on a laptop and on a phone: the dismiss-only new-key dialog
 * (kept across Back), the list without overflow once "Last used" holds a date, the expiry and
 * 90-day flags, rename with the server's field errors, roll with a grace (both keys work over
 * HTTP, then ending the grace stops the old one), the filter for inactive keys, focus after
 * deactivation, and a key's activity page.
 */

const SIZES = [
  { name: "laptop", viewport: { width: 1280, height: 800 } },
  { name: "phone", viewport: { width: 390, height: 844 } },
] as const;

/** The operator CLI on the server's database: what the dashboard can't make (a key expiring in 3 days). */
async function cli(...args: string[]): Promise<Record<string, unknown>> {
  const { code, stdout, stderr } = await runCli(args);
  if (code !== 0) throw new Error(stderr);
  return JSON.parse(stdout) as Record<string, unknown>;
}

/** Ages a key past the 90 days after which the list flags it, straight in the server's database. */
async function ageKey(email: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    await client.query(
      `UPDATE "api_key" SET "createdAt" = now() - interval '91 days' WHERE "name" = $2 AND "userId" = (SELECT "id" FROM "user" WHERE "email" = $1)`,
      [email, name],
    );
  } finally {
    await client.end();
  }
}

async function listBlogs(request: APIRequestContext, key: string) {
  const response = await request.get("/api/v1/blogs", { headers: { "x-api-key": key } });
  return { status: response.status(), body: await response.json() };
}

/** Nothing wider than the screen, and the given control fully inside it. */
async function expectNoOverflow(page: Page, control: ReturnType<Page["getByRole"]>) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  const box = (await control.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(page.viewportSize()!.width);
}

for (const size of SIZES) {
  test.describe(`keys on a ${size.name}`, () => {
    test.use({ viewport: size.viewport });

    test(`roll, rename, filter, flags and activity (${size.viewport.width}×${size.viewport.height})`, async ({ page, request }) => {
      test.setTimeout(240_000);
      const run = `${size.name}-${Date.now().toString(36)}`;
      const owner = { name: "Kay Keys", handle: `kay-${run}`, email: `kay-${run}@example.test` };
      // The one refusal the test provokes (an empty name) is a 400 of keys.update.
      const problems = collectProblems(page, (url) => url.includes("/api/trpc/keys.update"));
      const shot = (name: string) => page.screenshot({ path: `test-results/keys-${size.name}-${name}.png`, fullPage: true });
      let firstKey = "";

      await test.step("the new key is in a dialog only its button dismisses, kept across Back", async () => {
        await signUp(page, owner);
        await page.getByRole("link", { name: "API keys", exact: true }).click();
        await page.getByLabel("Name", { exact: true }).fill("deploy");
        await page.getByLabel("Description", { exact: true }).fill("CI deploys");
        await page.getByRole("button", { name: "Create key" }).click();
        const dialog = page.getByRole("dialog");
        await expect(dialog).toContainText("it is shown only once and can't be shown again");
        firstKey = await dialog.getByTestId("new-api-key").inputValue();
        expect(firstKey).toMatch(/^bm_[a-z0-9]{64}$/);
        await shot("01-new-key-dialog");
        await page.keyboard.press("Escape");
        await page.mouse.click(5, 5);
        await expect(dialog).toBeVisible();
        await page.goBack();
        await expect(page).toHaveURL(/\/dashboard$/);
        await expect(dialog).toBeVisible();
        await expect(dialog.getByTestId("new-api-key")).toHaveValue(firstKey);
        await dialog.getByRole("button", { name: "I have stored the key" }).click();
        await expect(dialog).toBeHidden();
      });

      await test.step("a key expiring within 7 days is flagged, also on the first page", async () => {
        await cli("key", "create", "--email", owner.email, "--name", "short-lived", "--permissions", "read:blogs", "--expires-at", new Date(Date.now() + 3 * 86_400_000).toISOString());
        await page.goto("/dashboard");
        await expect(page.getByRole("status").filter({ hasText: "expires within 7 days" })).toContainText("short-lived");
        await shot("02-first-page-expiring");
      });

      await test.step("the list fits the screen once Last used holds a date; a key over 90 days old is flagged", async () => {
        expect((await listBlogs(request, firstKey)).status).toBe(200);
        await ageKey(owner.email, "deploy");
        await page.goto("/dashboard/keys");
        const row = page.getByTestId("key-row-deploy");
        await expect(row).toContainText("Over 90 days old: roll it");
        await expect(row).toContainText(/Last used\d+ \w+ \d{4}, \d\d:\d\d/);
        await expect(page.getByTestId("key-row-short-lived")).toContainText("Expiring soon");
        await expectNoOverflow(page, page.getByRole("button", { name: "Deactivate deploy" }));
        await shot("03-keys-list");
      });

      await test.step("rename: the server's field error is shown under its field", async () => {
        await page.getByRole("button", { name: "Edit deploy" }).click();
        const dialog = page.getByRole("dialog");
        await dialog.getByLabel("Name", { exact: true }).fill("   ");
        await dialog.getByRole("button", { name: "Save" }).click();
        await expect(dialog.getByLabel("Name", { exact: true })).toHaveAttribute("aria-invalid", "true");
        await expect(dialog.getByRole("alert")).toContainText("name is required");
        await shot("04-edit-field-error");
        await dialog.getByLabel("Name", { exact: true }).fill("deployer");
        await dialog.getByLabel("Description", { exact: true }).fill("CI deploys, renamed");
        await dialog.getByRole("button", { name: "Save" }).click();
        await expect(dialog).toBeHidden();
        await expect(page.getByTestId("key-row-deployer")).toContainText("CI deploys, renamed");
      });

      let rolledKey = "";
      await test.step("roll with a grace: both keys work, the list shows the grace's end", async () => {
        await page.getByRole("button", { name: "Roll deployer" }).click();
        const dialog = page.getByRole("dialog");
        await dialog.getByRole("radio", { name: "1 hour" }).check();
        await shot("05-roll-dialog");
        await dialog.getByRole("button", { name: "Roll key" }).click();
        const shown = page.getByTestId("new-api-key");
        await expect(shown).toHaveValue(/^bm_[a-z0-9]{64}$/);
        rolledKey = await shown.inputValue();
        await expect(page.getByRole("dialog")).toContainText("The key it replaces keeps working until");
        await page.getByRole("button", { name: "I have stored the key" }).click();
        await expect(page.getByRole("heading", { name: "deployer" }).last()).toBeFocused();
        expect((await listBlogs(request, firstKey)).status).toBe(200);
        expect((await listBlogs(request, rolledKey)).status).toBe(200);
        await expect(page.getByText(/Rolled: works until/)).toBeVisible();
        await shot("06-rolled-in-grace");
      });

      await test.step("ending the grace early is one confirmed click; the old key is refused as rolled", async () => {
        await page.getByRole("button", { name: "End the grace of deployer" }).click();
        await page.getByRole("dialog").getByRole("button", { name: "Stop the old key" }).click();
        await expect(page.getByRole("dialog")).toBeHidden();
        await expect(page.getByRole("heading", { name: "Your keys" })).toBeFocused();
        const refused = await listBlogs(request, firstKey);
        expect(refused.status).toBe(401);
        expect(refused.body.error).toMatchObject({ code: "INVALID_API_KEY", message: expect.stringContaining("rolled") });
        expect((await listBlogs(request, rolledKey)).status).toBe(200);
        await expect(page.getByTestId("key-row-deployer")).toHaveCount(1);
        await page.getByRole("checkbox", { name: /Show deactivated, expired and rolled keys/ }).check();
        await expect(page.getByTestId("key-row-deployer")).toHaveCount(2);
        await expect(page.getByTestId("key-row-deployer").last()).toContainText("rolled");
        await shot("07-filter-shows-rolled");
        await page.getByRole("checkbox", { name: /Show deactivated/ }).uncheck();
      });

      await test.step("deactivating keeps focus on the page, not the body", async () => {
        await page.getByRole("button", { name: "Deactivate short-lived" }).focus();
        await page.keyboard.press("Enter");
        const dialog = page.getByRole("dialog");
        await dialog.getByRole("button", { name: "Deactivate key" }).click();
        await expect(dialog).toBeHidden();
        await expect(page.getByRole("heading", { name: "Your keys" })).toBeFocused();
        await expect(page.getByTestId("key-row-short-lived")).toBeHidden();
        await page.keyboard.press("Tab");
        expect(await page.evaluate(() => document.activeElement?.tagName)).not.toBe("BODY");
      });

      await test.step("a key's activity: usage by outcome and its latest requests", async () => {
        expect((await request.get("/api/v1/blogs/nope", { headers: { "x-api-key": rolledKey } })).status()).toBe(404);
        expect((await request.get(`/api/v1/blogs?limit=99&api_key=${rolledKey}`)).status()).toBe(400);
        await page.getByRole("link", { name: "Activity of deployer" }).click();
        await expect(page.getByRole("heading", { name: "Key “deployer”" })).toBeVisible();
        const table = page.getByRole("table", { name: "Latest requests" });
        await expect(table).toContainText("/blogs/{blogId}");
        await expect(table).toContainText("404");
        // Each request's error code and query string, the key in it redacted; times to the second.
        await expect(table).toContainText("RESOURCE_NOT_FOUND");
        await expect(table).toContainText("INVALID_PARAMETER");
        await expect(table.getByTestId("request-query")).toHaveText("?limit=99&api_key=REDACTED");
        await expect(table).not.toContainText(rolledKey);
        await expect(table.locator("time").first()).toHaveText(/^\d{1,2} \w{3} \d{4}, \d\d:\d\d:\d\d$/);
        await expect(page.getByTestId("usage-chart")).toHaveAttribute("aria-label", /in all/);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow).toBeLessThanOrEqual(0);
        await shot("08-key-activity");
      });

      expect(problems).toEqual([]);
    });
  });
}
