import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { emailsTo } from "../tests/support/mailbox";
import { PASSWORD, signUp, submitWaitingOutLimit } from "./support";
import { showPreview } from "./markdown-editor";

/**
 * The owner dashboard end to end, as a new owner uses it: sign up, write a blog, switch its API
 * access and see the API follow, make a key and use it over HTTP, deactivate it, read the usage,
 * open the API reference and the public page; then a second account that must see none of it.
 */

const run = Date.now().toString(36);
const owner = { name: "Ada Owner", handle: `ada-${run}`, email: `ada-${run}@example.test` };
const other = { name: "Bob Other", handle: `bob-${run}`, email: `bob-${run}@example.test` };
const blog = {
  title: "Hello from the dashboard",
  slug: `hello-${run}`,
  description: "A first post, written in the browser.",
  seoTitle: "Hello, search engines",
  seoDescription: "What a search engine shows under the link.",
  content: "## A heading\n\nSome **bold** text and a [link](https://example.com).\n\n<script>window.pwned = true</script>\n",
};

async function shot(page: Page, name: string) {
  await page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });
}

async function listBlogsWithKey(request: APIRequestContext, key: string) {
  const response = await request.get("/api/v1/blogs", { headers: { "x-api-key": key } });
  return { status: response.status(), body: await response.json() };
}

/** A dashboard tRPC call with the page's session cookie, as the browser would make it. */
async function trpc(page: Page, procedure: string, input: unknown, kind: "query" | "mutation") {
  const response =
    kind === "query"
      ? await page.request.get(`/api/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify(input))}`)
      : await page.request.post(`/api/trpc/${procedure}`, { data: input, headers: { origin: new URL(page.url()).origin } });
  return { status: response.status(), body: await response.json() };
}

test("an owner manages blogs, keys and usage, and another account sees none of it", async ({ page, browser, request }) => {
  test.setTimeout(240_000);
  const pageErrors: string[] = [];
  page.on("pageerror", (error) => pageErrors.push(error.message));
  let apiKey = "";
  let blogId = "";
  let keyId = "";

  await test.step("landing page and sign-up", async () => {
    await page.goto("/");
    await expect(page.getByRole("link", { name: "Create account" })).toBeVisible();
    await shot(page, "01-landing");
    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/sign-in\?next=/);

    await page.goto("/sign-up");
    await page.getByLabel("Handle", { exact: true }).fill("dashboard");
    await page.getByLabel("Email", { exact: true }).fill(owner.email);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page.getByText("the handle dashboard is reserved")).toBeVisible();
    await shot(page, "02-sign-up-reserved-handle");

    await signUp(page, owner);
    await expect(page.getByText("No blogs yet")).toBeVisible();
  });

  await test.step("create a blog with inline validation and a Markdown preview", async () => {
    await page.getByRole("link", { name: "New blog" }).click();
    await expect(page).toHaveURL(/\/dashboard\/blogs\/new$/);
    // Publishing without a title: the confirmation panel's save is refused at the field.
    await page.getByRole("button", { name: "Publish", exact: true }).click();
    await page.getByRole("dialog", { name: "Publish this post" }).getByRole("button", { name: "Publish now" }).click();
    await expect(page.getByText("title is required")).toBeVisible();

    await page.getByLabel("Title", { exact: true }).fill(blog.title);
    const settings = page.getByRole("complementary", { name: "Settings" });
    await settings.getByLabel("Slug", { exact: true }).fill("Not A Slug");
    await expect(
      page.getByText("Slug must contain only lowercase letters a-z, digits 0-9 and single hyphens between them"),
    ).toBeVisible();
    await settings.getByLabel("Slug", { exact: true }).fill(blog.slug);
    await expect(page.getByText("Slug must contain only")).toHaveCount(0);
    await settings.getByLabel("Description", { exact: true }).fill(blog.description);
    await page.getByLabel("Content (Markdown)", { exact: true }).fill(blog.content);
    await settings.getByLabel("SEO title", { exact: true }).fill(blog.seoTitle);
    await settings.getByLabel("SEO description", { exact: true }).fill(blog.seoDescription);
    await showPreview(page);
    await expect(page.getByTestId("markdown-preview").getByRole("heading", { name: "A heading" })).toBeVisible();
    await shot(page, "03-blog-editor-preview");

    await page.getByRole("button", { name: "Publish", exact: true }).click();
    await page.getByRole("dialog", { name: "Publish this post" }).getByRole("button", { name: "Publish now" }).click();
    await expect(page.getByTestId("blog-state")).toContainText("Published");
    await expect(page).toHaveURL(/\/dashboard\/blogs\/(?!new$)[^/?]+$/);
    blogId = new URL(page.url()).pathname.split("/").at(-1)!;
    await expect(page.getByLabel("Title", { exact: true })).toHaveValue(blog.title);
  });

  await test.step("create an API key: shown once, with a copy button and a warning", async () => {
    await page.getByRole("link", { name: "API keys", exact: true }).click();
    await expect(page.getByText("No API keys yet")).toBeVisible();
    await page.getByLabel("Name", { exact: true }).fill("e2e key");
    await page.getByLabel("Description", { exact: true }).fill("Playwright");
    await page.getByRole("checkbox", { name: /read:analytics/ }).check();
    await page.getByRole("radio", { name: "90 days" }).check();
    await page.getByRole("button", { name: "Create key" }).click();
    const shown = page.getByTestId("new-api-key");
    await expect(shown).toHaveValue(/^bm_[a-z0-9]{64}$/);
    apiKey = await shown.inputValue();
    await expect(page.getByText("it is shown only once and can't be shown again")).toBeVisible();
    await expect(page.getByRole("button", { name: "Copy key" })).toBeVisible();
    await shot(page, "04-key-created");
    await page.getByRole("button", { name: "I have stored the key" }).click();

    const row = page.getByTestId("key-row-e2e key");
    await expect(row).toContainText(`${apiKey.slice(0, 7)}…${apiKey.slice(-4)}`);
    await expect(row).toContainText("read:blogs");
    await expect(row).toContainText("read:analytics");
    await expect(row).toContainText("active");
    await expect(row).not.toContainText(apiKey);
    const keys = await trpc(page, "keys.list", undefined, "query");
    keyId = keys.body.result.data[0].id;
  });

  await test.step("the key works over HTTP, and the API access switch takes effect at once", async () => {
    let listed = await listBlogsWithKey(request, apiKey);
    expect(listed.status).toBe(200);
    expect(listed.body.data.blogs.map((b: any) => b.id)).toEqual([blogId]);

    await page.getByRole("link", { name: "Blogs", exact: true }).click();
    const row = page.getByTestId(`blog-row-${blog.slug}`);
    await expect(row).toContainText(blog.title);
    const apiSwitch = row.getByRole("switch", { name: `API access: ${blog.title}` });
    await expect(apiSwitch).toHaveAttribute("aria-checked", "true");
    await apiSwitch.click();
    await expect(apiSwitch).toHaveAttribute("aria-checked", "false");
    // Saved: the switch stays enabled while saving (to keep the focus), busy until the answer.
    await expect(apiSwitch).not.toHaveAttribute("aria-busy", "true");
    listed = await listBlogsWithKey(request, apiKey);
    expect(listed.body.data.blogs).toEqual([]);
    expect(listed.body.data.pagination.total).toBe(0);
    await shot(page, "05-dashboard-blogs");

    await apiSwitch.click();
    await expect(apiSwitch).toHaveAttribute("aria-checked", "true");
    // Saved: the switch stays enabled while saving (to keep the focus), busy until the answer.
    await expect(apiSwitch).not.toHaveAttribute("aria-busy", "true");
    listed = await listBlogsWithKey(request, apiKey);
    expect(listed.body.data.blogs.map((b: any) => b.id)).toEqual([blogId]);

    await page.getByLabel("Search blogs", { exact: true }).fill("no such title");
    await expect(page.getByText("No blog matches")).toBeVisible();
    await page.getByLabel("Search blogs", { exact: true }).fill("dashboard");
    await expect(row).toBeVisible();
  });

  await test.step("the public page: rendered Markdown, SEO title and description", async () => {
    const response = await page.goto(`/${owner.handle}/${blog.slug}`);
    expect(response?.status()).toBe(200);
    await expect(page).toHaveTitle(`${blog.seoTitle} – ${owner.name}`);
    await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", blog.seoDescription);
    await expect(page.getByRole("heading", { name: blog.title, level: 1 })).toBeVisible();
    await expect(page.getByRole("heading", { name: "A heading" })).toBeVisible();
    await expect(page.locator("article strong")).toHaveText("bold");
    expect(await page.evaluate(() => (window as unknown as { pwned?: boolean }).pwned)).toBeUndefined();
    expect(await page.locator("article script").count()).toBe(0);
    await shot(page, "06-public-blog");

    await page.goto(`/${owner.handle}`);
    await expect(page.getByRole("link", { name: blog.title })).toBeVisible();
    await shot(page, "07-public-index");
    expect((await page.request.get(`/${owner.handle}/no-such-blog`)).status()).toBe(404);
  });

  await test.step("deactivate the key: the next request fails with INVALID_API_KEY", async () => {
    await page.goto("/dashboard/keys");
    await page.getByRole("button", { name: "Deactivate e2e key" }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog).toContainText("Applications using this key stop working at once");
    await shot(page, "08-key-deactivate-confirm");
    await dialog.getByRole("button", { name: "Deactivate key" }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole("heading", { name: "Your keys" })).toBeFocused();
    await expect(page.getByTestId("key-row-e2e key")).toBeHidden();
    await page.getByRole("checkbox", { name: /Show deactivated, expired and rolled keys/ }).check();
    await expect(page.getByTestId("key-row-e2e key")).toContainText("deactivated");
    const listed = await listBlogsWithKey(request, apiKey);
    expect(listed.status).toBe(401);
    expect(listed.body.error.code).toBe("INVALID_API_KEY");
    await shot(page, "09-keys");
  });

  await test.step("usage: plan, current window and the chart count those requests", async () => {
    await page.getByRole("link", { name: "Usage", exact: true }).click();
    await expect(page.getByTestId("usage-plan")).toContainText("Free");
    await expect(page.getByTestId("usage-plan")).toContainText("100 requests an hour");
    // Three authenticated requests; the 401 after deactivation counts neither as usage nor budget.
    await expect(page.getByTestId("usage-window")).toContainText("3 / 100");
    await expect(page.getByTestId("usage-totals")).toContainText("3 requests");
    const today = new Date().toISOString().slice(0, 10);
    await expect(page.locator(`[data-date="${today}"]`)).toHaveAttribute("data-requests", "3");
    await expect(page.getByRole("table", { name: "Requests by key" })).toContainText("e2e key");
    await expect(page.getByRole("table", { name: "Requests by endpoint" })).toContainText("GET /api/v1/blogs");
    await shot(page, "10-usage");
  });

  await test.step("the API reference renders the OpenAPI document with the real base URL", async () => {
    await page.getByRole("link", { name: "API reference", exact: true }).click();
    const origin = new URL(page.url()).origin;
    await expect(page.getByTestId("api-base-url")).toHaveText(`${origin}/api/v1`);
    await expect(page.getByTestId("api-reference").getByRole("heading", { name: "List blogs" })).toBeVisible({ timeout: 30_000 });
    await page.screenshot({ path: test.info().outputPath("11-api-reference.png") });
  });

  await test.step("phone width: no page-wide sideways scrolling", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    for (const [path, name] of [
      ["/dashboard", "14-phone-blogs"],
      ["/dashboard/keys", "15-phone-keys"],
      ["/dashboard/usage", "16-phone-usage"],
      [`/dashboard/blogs/${blogId}`, "17-phone-editor"],
    ] as const) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await page.waitForLoadState("networkidle");
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await shot(page, name);
    }
    await page.setViewportSize({ width: 1280, height: 720 });
  });

  await test.step("another account sees none of it", async () => {
    const context = await browser.newContext();
    const otherPage = await context.newPage();
    try {
      await otherPage.goto("/sign-up");
      await otherPage.getByLabel("Handle", { exact: true }).fill(other.handle);
      await otherPage.getByLabel("Email", { exact: true }).fill(owner.email);
      // The owner's address with another password: answered as any sign-up (docs/security.md, No
      // account enumeration), no session, and the owner is told by email.
      await otherPage.getByLabel("Password", { exact: true }).fill(`other-${PASSWORD}`);
      await otherPage.getByRole("button", { name: "Create account" }).click();
      await expect(otherPage.getByText("If you already have an account, sign in or reset your password.", { exact: false })).toBeVisible();
      await expect.poll(async () => (await emailsTo(owner.email)).map((email) => email.subject), { timeout: 20_000 }).toContain("You already have an account");

      await signUp(otherPage, other);
      await expect(otherPage.getByText("No blogs yet")).toBeVisible();
      await expect(otherPage.getByText(blog.title)).toHaveCount(0);
      await otherPage.goto("/dashboard/keys");
      await expect(otherPage.getByText("No API keys yet")).toBeVisible();
      await otherPage.goto(`/dashboard/blogs/${blogId}`);
      await expect(otherPage.getByText("This blog can't be shown")).toBeVisible();
      await shot(otherPage, "12-other-account-blog");

      const get = await trpc(otherPage, "blogs.get", { blogId }, "query");
      expect(get.status).toBe(404);
      const update = await trpc(otherPage, "blogs.update", { blogId, title: "Hijacked", isPublic: false }, "mutation");
      expect(update.status).toBe(404);
      const remove = await trpc(otherPage, "blogs.delete", { blogId }, "mutation");
      expect(remove.status).toBe(404);
      const deactivate = await trpc(otherPage, "keys.deactivate", { id: keyId }, "mutation");
      expect(deactivate.status).toBe(404);
      const list = await trpc(otherPage, "blogs.list", {}, "query");
      expect(list.body.result.data.data.pagination.total).toBe(0);
    } finally {
      await context.close();
    }
    // Without a session, nothing at all.
    const anonymous = await request.get(`/api/trpc/blogs.list?input=${encodeURIComponent("{}")}`);
    expect(anonymous.status()).toBe(401);
    // And the first owner's blog is intact.
    const mine = await trpc(page, "blogs.get", { blogId }, "query");
    expect(mine.body.result.data.data.blog.title).toBe(blog.title);
  });

  await test.step("sign out, wrong password told plainly, sign in again", async () => {
    await page.goto("/dashboard");
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/sign-in$/);
    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/sign-in\?next=/);
    await page.getByLabel("Email", { exact: true }).fill(owner.email);
    await page.getByLabel("Password", { exact: true }).fill("wrong-password");
    await submitWaitingOutLimit(page, "Sign in", "/api/auth/sign-in/email");
    await expect(page.getByText("Wrong email or password.")).toBeVisible();
    await shot(page, "13-sign-in-wrong-password");
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await submitWaitingOutLimit(page, "Sign in", "/api/auth/sign-in/email");
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByTestId(`blog-row-${blog.slug}`)).toBeVisible();
    await page.goto("/sign-in");
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  expect(pageErrors).toEqual([]);
});
