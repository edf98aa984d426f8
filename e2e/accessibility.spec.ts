import { expect, test, type Page } from "@playwright/test";
import { axeViolations, pngBytes, signUp, uploadImage, VIEWPORTS } from "./support";

/**
 * Every page an owner or a reader sees passes axe-core's WCAG 2.2 A and AA rules at a phone's and a
 * laptop's width (README, Security): signed out, every dashboard page once its data has loaded
 * (the API reference once Scalar has rendered), the public index, a public blog with a cover and
 * an image and a tag's page (in the dark scheme too), and a 404.
 */

/** A dashboard change with the page's session, as the browser makes it. */
async function trpcMutation(page: Page, procedure: string, input: unknown) {
  const response = await page.request.post(`/api/trpc/${procedure}`, { data: input, headers: { origin: new URL(page.url()).origin } });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()).result.data;
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
    const image = await uploadImage(page, await pngBytes(1200, 800, "#0f766e"));
    const content = `# Hello\n\nA *public* post.\n\n![A teal test pattern](${new URL(image.url).pathname})\n\n- [x] a task done\n- [ ] a task to do\n\n\`\`\`js\nconst x = 1;\n\`\`\``;
    const { blog } = (await trpcMutation(page, "blogs.create", { title: "Readable by everyone", content, coverImage: image.id, isPublic: true, tags: ["Axe tag"] })).data;
    const key = await trpcMutation(page, "keys.create", { name: "axe key", permissions: ["read:blogs"] });

    await visit("/dashboard", () => expect(page.getByText("Readable by everyone").first()).toBeVisible());
    await visit("/dashboard/blogs/new", () => expect(page.getByLabel("Title", { exact: true })).toBeVisible());
    await visit(`/dashboard/blogs/${blog.id}`, () => expect(page.getByLabel("Title", { exact: true })).toHaveValue("Readable by everyone"));
    await visit("/dashboard/keys", () => expect(page.getByText("axe key").first()).toBeVisible());
    await visit(`/dashboard/keys/${key.id}`, () => expect(page.getByRole("heading", { name: /axe key/ })).toBeVisible());
    await visit("/dashboard/webhooks", () => expect(page.getByText("No endpoints yet")).toBeVisible());
    await visit("/dashboard/images", () => expect(page.getByRole("list", { name: "Your images" }).getByRole("listitem")).toHaveCount(1));
    await visit("/dashboard/usage", () => expect(page.getByTestId("image-storage")).toBeVisible());
    await visit("/dashboard/account", () => expect(page.getByRole("button", { name: "Delete my account" })).toBeVisible());
    await visit("/dashboard/api", () => expect(page.getByTestId("api-reference").getByRole("heading", { name: "List blogs" })).toBeVisible({ timeout: 30_000 }));
    await visit("/dashboard/no-such-page", () => expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible());
    await visit(`/${owner.handle}`, () => expect(page.getByRole("link", { name: "Readable by everyone" })).toBeVisible());
    await visit(`/${owner.handle}/${blog.blogSlug}`, () => expect(page.getByRole("heading", { name: "Hello" })).toBeVisible());
    await visit(`/${owner.handle}/tags/axe-tag`, () => expect(page.getByRole("heading", { name: "Axe tag" })).toBeVisible());
    // The public pages follow the system's colour scheme: the dark one passes too.
    await page.emulateMedia({ colorScheme: "dark" });
    await visit(`/${owner.handle}`, () => expect(page.getByRole("link", { name: "Readable by everyone" })).toBeVisible());
    await visit(`/${owner.handle}/${blog.blogSlug}`, () => expect(page.getByRole("heading", { name: "Hello" })).toBeVisible());
    await page.emulateMedia({ colorScheme: "light" });
    await visit("/sign-out", () => expect(page.getByRole("button", { name: /sign out/i })).toBeVisible());

    await context.close();
    expect(found).toEqual({});
  });
}
