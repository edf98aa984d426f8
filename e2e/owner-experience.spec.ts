import { expect, test, type Locator, type Page } from "@playwright/test";
import { authLimitWaitedOut, editorState, openSettings, signUp, waitForSave } from "./support";
import { showPreview } from "./markdown-editor";

/**
 * What an owner expects of the blog pages, at a laptop's and a phone's size: nothing wider than the
 * screen, both switches of every blog in view, focus kept where the owner works, failures with a
 * Retry, a form that asks before losing edits and tells of someone else's change, GitHub-flavoured
 * Markdown, and public pages with a favicon, social cards and a canonical link.
 */

const run = Date.now().toString(36);
const LONG_WORD = "Supercalifragilisticexpialidocious".repeat(5);
const GFM = [
  "| Plan | Requests |",
  "| ---- | -------- |",
  "| Free | 100 |",
  "",
  "This was ~~wrong~~ right.",
  "",
  "- [x] written",
  "- [ ] published",
  "",
  LONG_WORD,
].join("\n");

const VIEWPORTS = [
  { name: "laptop", width: 1280, height: 800 },
  { name: "phone", width: 390, height: 844 },
] as const;

async function shot(page: Page, name: string) {
  await page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });
}

/** The page is no wider than the window: nothing scrolls sideways. */
async function expectNoSidewaysScroll(page: Page) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.scrollingElement!.scrollWidth, innerWidth: window.innerWidth }));
  expect(scrollWidth, `page is ${scrollWidth}px wide in a ${innerWidth}px window`).toBeLessThanOrEqual(innerWidth);
}

const focusedLabel = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute("aria-label") ?? document.activeElement?.id ?? document.activeElement?.tagName);

/** A dashboard call with the page's session, as the browser makes it. */
/** Does `work` in the editor's settings: the side panel from 1024 px up, else the sheet, opened and closed around it. */
async function inSettings(page: Page, work: (settings: Locator) => Promise<unknown>) {
  const settings = await openSettings(page);
  await work(settings);
  if ((page.viewportSize()?.width ?? 0) < 1024) await settings.getByRole("button", { name: "Close" }).click();
}

async function trpcMutation(page: Page, procedure: string, input: unknown) {
  const response = await page.request.post(`/api/trpc/${procedure}`, { data: input, headers: { origin: new URL(page.url()).origin } });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()).result.data;
}

for (const viewport of VIEWPORTS) {
  test.describe(`at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height }, timezoneId: "Pacific/Auckland" });

    test(`the blog pages as an owner uses them (${viewport.name})`, async ({ page }) => {
      test.setTimeout(180_000);
      const owner = { name: "Olga Owner", handle: `olga-${viewport.name}-${run}`, email: `olga-${viewport.name}-${run}@example.test` };
      const consoleErrors: string[] = [];
      page.on("pageerror", (error) => consoleErrors.push(error.message));
      page.on("console", (message) => {
        // Chromium logs every failed response: the 502, 412 and 401 (Try it without a key) are the steps' own.
        const provoked = /status of (401|412|502)/.test(message.text()) || authLimitWaitedOut(message.location().url, message.text());
        if (message.type() === "error" && !provoked) consoleErrors.push(message.text());
      });
      const shotName = (step: string) => `${viewport.name}-${step}`;
      let blogId = "";
      let slug = "";

      await test.step("home page, signed out and in", async () => {
        await page.goto("/");
        await expect(page.getByRole("link", { name: "Sign in" })).toBeVisible();
        await expectNoSidewaysScroll(page);
        await shot(page, shotName("01-home-signed-out"));
        await signUp(page, owner);
        await page.goto("/");
        await expect(page.getByRole("link", { name: "Dashboard", exact: true })).toBeVisible();
        await expect(page.getByRole("link", { name: "Sign in" })).toHaveCount(0);
        await expectNoSidewaysScroll(page);
      });

      await test.step("every section of the dashboard is in view, none clipped or scrolled away", async () => {
        await page.goto("/dashboard");
        const sections = page.getByRole("navigation", { name: "Dashboard" }).getByRole("link");
        await expect(sections).toHaveCount(13);
        for (const section of await sections.all()) await expect(section).toBeInViewport({ ratio: 1 });
        await shot(page, shotName("02-dashboard-sections"));
      });

      await test.step("the list: long values truncated, both switches in view, local times with UTC on hover", async () => {
        slug = `a-very-long-slug-that-goes-on-and-on-and-on-${viewport.name}-${run}`;
        // A scheduled blog's row (its time and Cancel schedule) must fit the table as well.
        const publishAt = new Date(Date.now() + 7 * 24 * 3600_000).toISOString();
        await trpcMutation(page, "blogs.create", { title: `Scheduled ${run}`, blogSlug: `scheduled-${viewport.name}-${run}`, content: "Soon.", publishAt });
        const created = await trpcMutation(page, "blogs.create", { title: `${LONG_WORD} title`, blogSlug: slug, content: GFM, isPublic: true });
        blogId = created.data.blog.id;
        await page.goto("/dashboard");
        await expect(page.getByRole("button", { name: `Cancel schedule: Scheduled ${run}` })).toBeVisible();
        const table = page.getByRole("table");
        expect(await table.evaluate((element) => element.parentElement!.scrollWidth - element.parentElement!.clientWidth), "the blog table scrolls sideways in its card").toBeLessThanOrEqual(0);
        const row = page.getByTestId(`blog-row-${slug}`);
        for (const name of ["Public", "API access"]) await expect(row.getByRole("switch", { name: new RegExp(`^${name}:`) })).toBeInViewport();
        const updated = row.locator("time").last();
        await expect(updated).toBeInViewport();
        await expect(updated).toHaveAttribute("title", /UTC$/);
        await expectNoSidewaysScroll(page);
        await shot(page, shotName("02-blog-list"));
      });

      await test.step("a switch keeps the focus once its change is saved", async () => {
        const apiSwitch = page.getByTestId(`blog-row-${slug}`).getByRole("switch", { name: /^API access:/ });
        await apiSwitch.focus();
        // Off, then on again (the API is used below).
        for (const checked of ["false", "true"]) {
          const saved = page.waitForResponse((response) => response.url().includes("/api/trpc/blogs.update"));
          await page.keyboard.press("Space");
          await saved;
          await expect(apiSwitch).toHaveAttribute("aria-checked", checked);
          await expect(apiSwitch).not.toHaveAttribute("aria-busy", "true");
          expect(await focusedLabel(page)).toMatch(/^API access:/);
        }
      });

      await test.step("a failed load says so plainly, and Retry loads it", async () => {
        // blogs.list may share its batch with the first page's other calls (expiring keys).
        const listCalls = (url: URL) => url.pathname.startsWith("/api/trpc/") && url.pathname.includes("blogs.list");
        await page.route(listCalls, (route) => route.fulfill({ status: 502, contentType: "text/html", body: "<html>Bad gateway</html>" }));
        await page.reload();
        const failure = page.getByTestId("load-error");
        await expect(failure).toContainText("Couldn't load your blogs.");
        await expect(failure).toContainText("The server could not be reached");
        await expect(failure).not.toContainText("Unexpected token");
        await expect(page.locator('[aria-label="Loading blogs"]')).toHaveCount(0);
        await shot(page, shotName("03-load-error"));
        await page.unroute(listCalls);
        await failure.getByRole("button", { name: "Retry" }).click();
        await expect(page.getByTestId(`blog-row-${slug}`)).toBeVisible();
        await expect(failure).toHaveCount(0);
      });

      await test.step("the edit page: no overflow, GFM preview, heading and tab title follow a save", async () => {
        await page.goto(`/dashboard/blogs/${blogId}`);
        await expect(page.getByRole("heading", { level: 1 })).toContainText(LONG_WORD);
        await expect(page).toHaveTitle(`Edit “${LONG_WORD} title” · Blog Manager`);
        await expectNoSidewaysScroll(page);
        await showPreview(page);
        const preview = page.getByTestId("markdown-preview");
        await expect(preview.getByRole("table")).toContainText("Requests");
        await expect(preview.locator("del")).toHaveText("wrong");
        await expect(preview.getByRole("checkbox")).toHaveCount(2);
        await expectNoSidewaysScroll(page);
        await shot(page, shotName("04-edit-preview"));

        await page.getByLabel("Title", { exact: true }).fill("Renamed in the form");
        await page.getByRole("button", { name: "Update" }).click();
        await waitForSave(page);
        await expect(page.getByRole("heading", { level: 1 })).toHaveText("Edit “Renamed in the form”");
        await expect(page).toHaveTitle("Edit “Renamed in the form” · Blog Manager");
      });

      await test.step("an invalid submit takes the focus to the first invalid field", async () => {
        await page.getByLabel("Title", { exact: true }).fill("");
        await inSettings(page, (settings) => settings.getByLabel("Slug", { exact: true }).fill("Not A Slug"));
        await page.getByRole("button", { name: "Update" }).click();
        await expect(page.getByText("Title is required")).toBeVisible();
        await expect(page.getByLabel("Title", { exact: true })).toBeFocused();
        await shot(page, shotName("05-invalid-submit"));
        await inSettings(page, (settings) => expect(settings.getByText("Slug must contain only lowercase letters", { exact: false })).toBeVisible());
      });

      await test.step("leaving with unsaved changes asks first", async () => {
        const questions: string[] = [];
        page.once("dialog", (dialog) => {
          questions.push(dialog.message());
          void dialog.dismiss();
        });
        await page.getByRole("link", { name: "Back to blogs" }).click();
        await expect.poll(() => questions).toEqual(["Leave this page? Your unsaved changes will be lost."]);
        await expect(page).toHaveURL(new RegExp(`/dashboard/blogs/${blogId}$`));
        await inSettings(page, (settings) => expect(settings.getByLabel("Slug", { exact: true })).toHaveValue("Not A Slug"));

        page.once("dialog", (dialog) => void dialog.accept());
        await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Blogs" }).click();
        await expect(page).toHaveURL(/\/dashboard$/);
      });

      await test.step("a save over someone else's change: Reload shows theirs, Overwrite saves mine", async () => {
        const { key } = await trpcMutation(page, "keys.create", { name: "conflict", permissions: ["read:blogs", "write:blogs"] });
        const changeOverApi = async (description: string) => {
          const response = await page.request.patch(`/api/v1/blogs/${blogId}`, { headers: { "x-api-key": key }, data: { description } });
          expect(response.status()).toBe(200);
        };
        await page.goto(`/dashboard/blogs/${blogId}`);
        const description = (settings: Locator) => settings.getByLabel("Description", { exact: true });
        await inSettings(page, (settings) => expect(description(settings)).toHaveValue(""));
        await changeOverApi("Theirs, first");
        await inSettings(page, (settings) => description(settings).fill("Mine, first"));
        await page.getByRole("button", { name: "Update" }).click();
        const conflict = page.getByRole("dialog", { name: "This blog was changed elsewhere" });
        await expect(conflict).toBeVisible();
        await shot(page, shotName("06-conflict"));
        await conflict.getByRole("button", { name: "Reload" }).click();
        await expect(conflict).toHaveCount(0);
        // The form starts afresh from the stored blog: nothing unsaved left.
        await expect(editorState(page)).not.toContainText("Unsaved changes");
        await inSettings(page, (settings) => expect(description(settings)).toHaveValue("Theirs, first"));

        await changeOverApi("Theirs, second");
        await inSettings(page, (settings) => description(settings).fill("Mine, second"));
        await page.getByRole("button", { name: "Update" }).click();
        await conflict.getByRole("button", { name: "Overwrite" }).click();
        await waitForSave(page);
        const stored = await page.request.get(`/api/v1/blogs/${blogId}`, { headers: { "x-api-key": key } });
        expect((await stored.json()).data.blog.description).toBe("Mine, second");

        // Saved again on top of its own save: no conflict.
        await inSettings(page, (settings) => description(settings).fill("Mine, third"));
        await page.getByRole("button", { name: "Update" }).click();
        await waitForSave(page);
        await expect(conflict).toHaveCount(0);
      });

      await test.step("the public page: GFM, no overflow, social cards, canonical link, favicon", async () => {
        await page.goto(`/${owner.handle}/${slug}`);
        const article = page.locator("article");
        await expect(article.getByRole("table")).toContainText("Free");
        await expect(article.locator("del")).toHaveText("wrong");
        await expect(article.getByRole("checkbox", { checked: true })).toHaveCount(1);
        await expectNoSidewaysScroll(page);
        await shot(page, shotName("07-public-page"));
        const url = new URL(`/${owner.handle}/${slug}`, page.url()).href;
        await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", url);
        await expect(page.locator('meta[property="og:url"]')).toHaveAttribute("content", url);
        await expect(page.locator('meta[property="og:title"]')).toHaveAttribute("content", "Renamed in the form");
        await expect(page.locator('meta[property="og:type"]')).toHaveAttribute("content", "article");
        await expect(page.locator('meta[name="twitter:card"]')).toHaveAttribute("content", "summary_large_image");
        await expect(page.locator('meta[property="og:image"]')).toHaveAttribute("content", `${url}/share-image.png`);
        const favicon = await page.request.get("/favicon.ico");
        expect(favicon.status()).toBe(200);
        expect(favicon.headers()["content-type"]).toBe("image/x-icon");
      });

      if (viewport.name === "laptop") {
        await test.step("the API reference's Try it sends no example as a parameter", async () => {
          await page.goto("/dashboard/api");
          const reference = page.getByTestId("api-reference");
          await expect(reference.getByRole("heading", { name: "List blogs" })).toBeVisible({ timeout: 30_000 });
          await reference.locator("section", { has: page.getByRole("heading", { name: "List blogs" }) }).last().getByRole("button", { name: /Test Request/ }).first().click();
          const sent = page.waitForRequest((request) => new URL(request.url()).pathname === "/api/v1/blogs");
          await page.getByRole("button", { name: /^Send/ }).first().click();
          const query = new URL((await sent).url()).searchParams;
          expect(query.has("from") || query.has("to")).toBe(false);
        });
      }

      await test.step("closing the tab with unsaved changes asks first", async () => {
        await page.goto(`/dashboard/blogs/${blogId}`);
        // Chromium prompts on closing only a page the user has interacted with, by heuristics of
        // its own: a click is the surest interaction (after fill alone, no prompt came once on CI).
        // The title, in view at every width (the description is in the phone's Settings sheet).
        const title = page.getByLabel("Title", { exact: true });
        await title.click();
        await title.fill("Never saved");
        const asked = page.waitForEvent("dialog");
        await page.close({ runBeforeUnload: true });
        const dialog = await asked;
        expect(dialog.type()).toBe("beforeunload");
        await dialog.accept();
      });

      expect(consoleErrors).toEqual([]);
    });
  });
}
