import { createServer } from "node:http";
import { expect, test, type Page } from "@playwright/test";
import { axeViolations, expectAccessible, pngBytes, signUp, startImport, uploadImage, VIEWPORTS, zipOf } from "./support";

/**
 * Every page an owner or a reader sees passes axe-core's WCAG 2.2 A and AA rules at a phone's and a
 * laptop's width (README, Security): signed out, every dashboard page once its data has loaded
 * (the API reference once Scalar has rendered), the public index, a public blog with a cover and
 * an image, a tag's page, an author's page and a search's results (in the dark scheme too), and a 404; then, in the
 * dark scheme, the sign-in pages and every dashboard page and dialog, each screenshot into test-results/. The
 * theme control overrides the system's scheme, rendered by the server from its cookie.
 */

/** A dashboard change with the page's session, as the browser makes it. */
async function trpcMutation(page: Page, procedure: string, input: unknown) {
  const response = await page.request.post(`/api/trpc/${procedure}`, { data: input, headers: { origin: new URL(page.url()).origin } });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()).result.data;
}

/** Every dashboard page, with what shows that its data has loaded. */
function dashboardPages(page: Page, { blogId, keyId }: { blogId: string; keyId: string }): { path: string; ready: () => Promise<void> }[] {
  return [
    { path: "/dashboard", ready: () => expect(page.getByText("Readable by everyone").first()).toBeVisible() },
    { path: "/dashboard/blogs/new", ready: () => expect(page.getByLabel("Title", { exact: true })).toBeVisible() },
    { path: `/dashboard/blogs/${blogId}`, ready: () => expect(page.getByLabel("Title", { exact: true })).toHaveValue("Readable by everyone") },
    { path: "/dashboard/keys", ready: () => expect(page.getByText("axe key").first()).toBeVisible() },
    { path: `/dashboard/keys/${keyId}`, ready: () => expect(page.getByRole("heading", { name: /axe key/ })).toBeVisible() },
    { path: "/dashboard/webhooks", ready: () => expect(page.getByRole("heading", { name: "Your endpoints" })).toBeVisible() },
    { path: "/dashboard/images", ready: () => expect(page.getByRole("list", { name: "Your images" }).getByRole("listitem").filter({ has: page.getByRole("checkbox") })).toHaveCount(1) },
    {
      path: "/dashboard/import",
      // The import seedOwner started, done, its report's list open.
      ready: async () => {
        const report = page.getByTestId("import").getByTestId("import-report");
        await expect(report).toBeVisible({ timeout: 90_000 });
        await report.getByText("Skipped: 1 file", { exact: true }).click();
        await expect(report.getByRole("table", { name: "Skipped items" })).toBeVisible();
      },
    },
    { path: "/dashboard/members", ready: () => expect(page.getByRole("heading", { name: "Pending invitations" })).toBeVisible() },
    { path: "/dashboard/usage", ready: () => expect(page.getByTestId("image-storage")).toBeVisible() },
    { path: "/dashboard/audit", ready: () => expect(page.getByRole("table", { name: "Audit log" }).getByRole("row", { name: /blog\.created/ }).first()).toBeVisible() },
    { path: "/dashboard/account", ready: () => expect(page.getByRole("button", { name: "Delete my account" })).toBeVisible() },
    {
      path: "/dashboard/api",
      ready: () => expect(page.getByTestId("api-reference").getByRole("heading", { name: "List blogs" })).toBeVisible({ timeout: 30_000 }),
    },
    { path: "/dashboard/no-such-page", ready: () => expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible() },
  ];
}

/**
 * What a new owner has to show on every page: a public blog with a cover, an image in it, a key;
 * an earlier blog with the same tag, so the blog's page ends with a previous and a related post;
 * and an import of a Markdown zip, with a file it skipped, so the Import & export page shows a report.
 */
async function seedOwner(page: Page) {
  await trpcMutation(page, "blogs.create", { title: "An earlier note", content: "Before.", isPublic: true, tags: ["Axe tag"] });
  const image = await uploadImage(page, await pngBytes(1200, 800, "#0f766e"));
  const content = `# Hello\n\nA *public* post.\n\n![A teal test pattern](${new URL(image.url).pathname})\n\n- [x] a task done\n- [ ] a task to do\n\n\`\`\`js\nconst x = 1;\n\`\`\``;
  const { blog } = (await trpcMutation(page, "blogs.create", { title: "Readable by everyone", content, coverImage: image.id, isPublic: true, tags: ["Axe tag"] })).data;
  const key = await trpcMutation(page, "keys.create", { name: "axe key", permissions: ["read:blogs"] });
  await startImport(
    page,
    await zipOf({ "_posts/2024-01-02-imported-note.md": '---\ntitle: "An imported note"\ndraft: true\n---\n\nFrom elsewhere.\n', "_config.yml": "title: Old site\n" }),
    "old-site.zip",
  );
  // A publication with everything its pages show (docs/publication.md); gold, too light for links on white, is made readable.
  await trpcMutation(page, "publication.update", {
    description: "Pages every reader can read",
    logo: image.id,
    icon: image.id,
    accentColor: "#ffd700",
    navigation: [
      { label: "About", url: "/about" },
      { label: "Axe tag", url: "/tags/axe-tag" },
    ],
    socialLinks: ["https://mastodon.social/@axe", "https://github.com/axe"],
    footer: "Written with **care**. [Contact](https://example.org/contact)",
  });
  return { blog, key };
}

for (const viewport of VIEWPORTS) {
  test(`every page passes axe-core (WCAG 2.2 A and AA) at ${viewport.width}×${viewport.height}`, async ({ browser }) => {
    test.setTimeout(180_000);
    const context = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height } });
    const page = await context.newPage();
    const found: Record<string, string[]> = {};
    const scan = async (label: string, ready: () => Promise<void>) => {
      await ready();
      const problems = await axeViolations(page);
      if (problems.length > 0) found[label] = problems;
    };
    const visit = (path: string, ready: () => Promise<void> = () => expect(page.locator("main").first()).toBeVisible()) =>
      scan(path, async () => {
        await page.goto(path);
        await ready();
      });

    await visit("/", () => expect(page.getByRole("heading", { level: 1 })).toBeVisible());
    await visit("/sign-in", () => expect(page.getByRole("button", { name: "Sign in", exact: true })).toBeVisible());
    await visit("/sign-up", () => expect(page.getByRole("button", { name: "Create account" })).toBeVisible());
    await visit("/no-such-handle-here/no-such-blog", () => expect(page.getByRole("heading", { name: "Not found" })).toBeVisible());

    const run = `${viewport.name}-${Date.now().toString(36)}`;
    const owner = { name: "Axe Owner", handle: `axe-${run}`, email: `axe-${run}@example.test` };
    await signUp(page, owner);
    const { blog, key } = await seedOwner(page);

    for (const { path, ready } of dashboardPages(page, { blogId: blog.id, keyId: key.id })) await visit(path, ready);
    await visit(`/${owner.handle}`, () => expect(page.getByRole("link", { name: "Readable by everyone" })).toBeVisible());
    await visit(`/${owner.handle}/${blog.blogSlug}`, () => expect(page.getByRole("heading", { name: "Hello" })).toBeVisible());
    await visit(`/${owner.handle}/tags/axe-tag`, () => expect(page.getByRole("heading", { name: "Axe tag" })).toBeVisible());
    await visit(`/${owner.handle}/authors/${owner.handle}`, () => expect(page.getByRole("heading", { level: 1, name: owner.name })).toBeVisible());
    const searchPage = `/${owner.handle}/search?q=public`;
    await visit(searchPage, () => expect(page.locator("main mark").first()).toBeVisible());
    await visit(`/${owner.handle}/no-such-post`, () => expect(page.getByRole("heading", { name: "Not found" })).toBeVisible());
    // The public pages follow the system's colour scheme: the dark one passes too.
    await page.emulateMedia({ colorScheme: "dark" });
    await visit(`/${owner.handle}`, () => expect(page.getByRole("link", { name: "Readable by everyone" })).toBeVisible());
    await visit(`/${owner.handle}/${blog.blogSlug}`, () => expect(page.getByRole("heading", { name: "Hello" })).toBeVisible());
    await visit(searchPage, () => expect(page.locator("main mark").first()).toBeVisible());
    await visit(`/${owner.handle}/tags/axe-tag`, () => expect(page.getByRole("heading", { name: "Axe tag" })).toBeVisible());
    await visit(`/${owner.handle}/authors/${owner.handle}`, () => expect(page.getByRole("heading", { level: 1, name: owner.name })).toBeVisible());
    await page.emulateMedia({ colorScheme: "light" });
    await visit("/sign-out", () => expect(page.getByRole("button", { name: /sign out/i })).toBeVisible());

    await context.close();
    expect(found).toEqual({});
  });
}

for (const viewport of VIEWPORTS) {
  test(`in the dark scheme every app page and dialog passes axe-core at ${viewport.width}×${viewport.height}`, async ({ browser }) => {
    test.setTimeout(480_000);
    const context = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height }, colorScheme: "dark" });
    const page = await context.newPage();
    const found: Record<string, string[]> = {};
    const shot = (name: string) => page.screenshot({ path: `test-results/dark-${viewport.name}-${name}.png`, fullPage: true });
    const scan = async (label: string) => {
      try {
        await expectAccessible(page, label);
      } catch {
        found[label] = await axeViolations(page);
      }
      await shot(label.replace(/^\/+/, "").replace(/[^a-z0-9]+/gi, "-") || "home");
    };
    const receiver = createServer((req, res) => req.resume().on("end", () => res.end("ok")));
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    try {
      for (const path of ["/sign-in", "/sign-up"]) {
        await page.goto(path);
        await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
        await scan(path);
      }
      const run = `${viewport.name}-${Date.now().toString(36)}`;
      await signUp(page, { name: "Dark Owner", handle: `dark-${run}`, email: `dark-${run}@example.test` });
      const { blog, key } = await seedOwner(page);
      // The key's activity shows a success and a refusal; the endpoint a delivered test event.
      expect((await page.request.get("/api/v1/blogs", { headers: { "x-api-key": key.key } })).status()).toBe(200);
      expect((await page.request.get("/api/v1/blogs?limit=99", { headers: { "x-api-key": key.key } })).status()).toBe(400);
      const endpoint = await trpcMutation(page, "webhooks.create", {
        url: `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hooks`,
        eventTypes: ["blog.published"],
      });
      await trpcMutation(page, "webhooks.sendTest", { id: endpoint.id });

      for (const { path, ready } of dashboardPages(page, { blogId: blog.id, keyId: key.id })) {
        await page.goto(path);
        await ready();
        await scan(path);
      }

      await page.goto("/dashboard/webhooks");
      await page.getByRole("button", { name: "Recent deliveries" }).click();
      await expect(page.getByRole("table", { name: "Recent deliveries" }).getByText("succeeded")).toBeVisible({ timeout: 15_000 });
      await scan("webhook deliveries");
      await page.getByRole("button", { name: "Delete", exact: true }).click();
      await expect(page.getByRole("dialog", { name: "Delete this endpoint?" })).toBeVisible();
      await scan("dialog delete endpoint");
      await page.keyboard.press("Escape");

      await page.goto("/dashboard/keys");
      await page.getByLabel("Name", { exact: true }).fill("dark key");
      await page.getByRole("button", { name: "Create key" }).click();
      await expect(page.getByRole("dialog")).toBeVisible();
      await scan("dialog new key");

      await page.goto(`/dashboard/blogs/${blog.id}`);
      await page.getByRole("button", { name: "Create preview link" }).click();
      await expect(page.getByLabel("Preview link", { exact: true })).toBeVisible();
      await scan("share preview");
      await page.getByRole("button", { name: "Revoke", exact: true }).click();
      await expect(page.getByRole("dialog", { name: "Revoke this preview link?" })).toBeVisible();
      await scan("dialog revoke preview");
    } finally {
      receiver.close();
      await context.close();
    }
    expect(found).toEqual({});
  });
}

test("the theme control overrides the system's scheme, server-rendered from its cookie, until set back to System", async ({ page }) => {
  const run = Date.now().toString(36);
  await signUp(page, { name: "Theme Owner", handle: `theme-${run}`, email: `theme-${run}@example.test` });
  await page.emulateMedia({ colorScheme: "light" });
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const lightBackground = await background();
  const theme = page.getByRole("combobox", { name: "Colour theme" });
  await expect(theme).toHaveValue("system");

  await theme.selectOption("dark");
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  expect(await background()).not.toBe(lightBackground);
  expect(await page.evaluate(() => getComputedStyle(document.documentElement).colorScheme)).toBe("dark");
  // The server renders the next page dark already: no flash of the light theme before any script runs.
  const html = await (await page.request.get("/dashboard/keys")).text();
  expect(html).toMatch(/<html[^>]* data-theme="dark"/);
  await page.reload();
  await expect(theme).toHaveValue("dark");

  // Light wins over a dark system; System follows it again.
  await page.emulateMedia({ colorScheme: "dark" });
  await theme.selectOption("light");
  expect(await background()).toBe(lightBackground);
  await theme.selectOption("system");
  await expect(page.locator("html")).not.toHaveAttribute("data-theme");
  expect(await background()).not.toBe(lightBackground);
  expect((await page.context().cookies()).find((cookie) => cookie.name === "theme")).toBeUndefined();
});
