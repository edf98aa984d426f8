import { expect, test, type Browser, type Page } from "@playwright/test";
import { waitForLink } from "../tests/support/mailbox";
import { expectAccessible, signUp, VIEWPORTS } from "./support";

/**
 * Subscribing from a publication's page (docs/newsletters.md, Subscribing) in a browser with
 * JavaScript off, on a phone and a laptop: the form, the check-your-inbox page, the emailed
 * confirmation link, the manage page it leads to and its Unsubscribe button; each page passes
 * axe-core, light and dark, and none loads a script.
 */

/**
 * axe-core is a script, which a browser with JavaScript off never runs: the page as that browser
 * has it is served again at its address to one with script, at the same size, and checked there.
 */
async function expectShownPageAccessible(browser: Browser, shown: Page, label: string): Promise<void> {
  const [html, url] = [await shown.content(), shown.url()];
  const context = await browser.newContext({ viewport: shown.viewportSize() });
  const page = await context.newPage();
  await page.route(url, (route) => route.fulfill({ status: 200, contentType: "text/html; charset=utf-8", body: html }));
  await page.goto(url);
  await expectAccessible(page, label);
  await context.close();
}
test("subscribe, confirm and unsubscribe without JavaScript, every page accessible at 390 and 1280 px", async ({ browser }) => {
  test.setTimeout(180_000);
  const id = Date.now().toString(36);
  const owner = { name: "Letters Owner", handle: `letters-${id}`, email: `letters-${id}@example.test` };
  const setup = await browser.newPage();
  await signUp(setup, owner);
  await setup.close();

  for (const viewport of VIEWPORTS) {
    const reader = `reader-${viewport.width}-${id}@example.com`;
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: viewport.width, height: viewport.height } });
    const page = await context.newPage();
    const scripts: string[] = [];
    page.on("request", (request) => void (request.resourceType() === "script" && scripts.push(request.url())));
    const label = (name: string) => `${name} at ${viewport.width} px`;

    await page.goto(`/${owner.handle}`);
    await page.getByLabel("Email address").fill(reader);
    await page.getByRole("button", { name: "Subscribe" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Check your inbox" })).toBeVisible();
    expect(new URL(page.url()).pathname).toBe(`/${owner.handle}/subscribe`);
    await expectShownPageAccessible(browser, page, label("check your inbox"));

    const { link } = await waitForLink(reader);
    await page.goto(link);
    await expect(page.getByRole("heading", { level: 1, name: "You're subscribed to Letters Owner" })).toBeVisible();
    await expectShownPageAccessible(browser, page, label("subscribed"));

    await page.getByRole("link", { name: "Manage your subscription" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Your subscription to Letters Owner" })).toBeVisible();
    await expect(page.getByText("is subscribed: new posts are emailed to it")).toBeVisible();
    await expectShownPageAccessible(browser, page, label("manage"));

    await page.getByRole("button", { name: "Unsubscribe" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "You're unsubscribed from Letters Owner" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Subscribe" })).toBeVisible();
    await expectShownPageAccessible(browser, page, label("unsubscribed"));
    await page.screenshot({ path: `test-results/unsubscribed-${viewport.width}.png`, fullPage: true });

    expect(scripts).toEqual([]);
    await context.close();
  }
});
