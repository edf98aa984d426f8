import { expect, test, type Page } from "@playwright/test";
import { signUp, VIEWPORTS } from "./support";

/**
 * The public site reads fully without JavaScript (docs/public-blog.md, Reading): a post, the index
 * with its pagination and a tag's page, in a browser with JavaScript off, loading no script at
 * all, with code blocks that scroll inside the column rather than widening the page, on a phone;
 * a post's end (docs/public-blog.md, The end of a post) leads on, and its subscribe form posts.
 */

async function createPublicBlog(page: Page, input: Record<string, unknown>) {
  const response = await page.request.post("/api/trpc/blogs.create", { data: { isPublic: true, ...input }, headers: { origin: new URL(page.url()).origin } });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()).result.data.data.blog as { blogSlug: string };
}

test("a post, the index and a tag's page render fully with JavaScript disabled, and load no script", async ({ browser }) => {
  test.setTimeout(120_000);
  const owner = { name: "No Script Owner", handle: `noscript-${Date.now().toString(36)}`, email: `noscript-${Date.now().toString(36)}@example.test` };
  const setup = await browser.newPage();
  await signUp(setup, owner);
  const longLine = `const message = "${"a very long line of code ".repeat(12)}";`;
  const post = await createPublicBlog(setup, { title: "Written for readers", content: `## Section\n\nSome *text*.\n\n\`\`\`js\n${longLine}\n\`\`\``, tags: ["Plain HTML"] });
  for (let i = 0; i < 20; i++) await createPublicBlog(setup, { title: `Filler ${i}` });
  await setup.close();

  const phone = VIEWPORTS.find((viewport) => viewport.width < 500)!;
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: phone.width, height: phone.height } });
  const page = await context.newPage();
  const scripts: string[] = [];
  page.on("request", (request) => void (request.resourceType() === "script" && scripts.push(request.url())));

  await page.goto(`/${owner.handle}/${post.blogSlug}`);
  await expect(page.getByRole("heading", { level: 1, name: "Written for readers" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: "Section" })).toBeVisible();
  await expect(page.getByRole("list", { name: "Tags" }).getByRole("link", { name: "Plain HTML" })).toBeVisible();
  // The code block scrolls sideways inside the column; the page itself does not.
  const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, viewport: window.innerWidth }));
  expect(widths.page).toBeLessThanOrEqual(widths.viewport);
  const pre = page.locator("pre").first();
  expect(await pre.evaluate((element) => element.scrollWidth > element.clientWidth && getComputedStyle(element).overflowX === "auto")).toBe(true);

  // The post's end: its author, the next post (it is the oldest: no previous), the subscribe form.
  await expect(page.getByRole("region", { name: "Author" }).getByRole("link", { name: "No Script Owner" })).toBeVisible();
  const postNavigation = page.getByRole("navigation", { name: "Previous and next posts" });
  await expect(postNavigation.getByRole("link", { name: /^Next post → Filler 0$/ })).toBeVisible();
  await expect(postNavigation.getByRole("link", { name: /Previous post/ })).toHaveCount(0);
  await page.screenshot({ path: "test-results/post-end-390.png", fullPage: true });

  // The publication's header leads to its home: the newest post featured, 19 more as cards.
  await page.getByRole("banner").getByRole("link", { name: "No Script Owner" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "No Script Owner" })).toBeVisible();
  await expect(page.getByRole("main").getByRole("article")).toHaveCount(20);
  await page.getByRole("link", { name: "Older →" }).click();
  await expect(page.getByRole("navigation", { name: "Pages" }).getByText("Page 2")).toBeVisible();
  await expect(page.getByRole("link", { name: "Written for readers" })).toBeVisible();
  await page.getByRole("link", { name: "Written for readers" }).click();
  await page.getByRole("link", { name: "Plain HTML" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Plain HTML" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Written for readers" })).toBeVisible();
  await expect(page.getByRole("link", { name: "RSS" })).toHaveAttribute("href", new RegExp(`/${owner.handle}/tags/plain-html/feed.xml$`));

  // The subscribe form works without script: posted, it lands on its page.
  await page.getByLabel("Email address").fill("reader@example.com");
  await page.getByRole("button", { name: "Subscribe" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Check your inbox" })).toBeVisible();
  expect(new URL(page.url()).pathname).toBe(`/${owner.handle}/subscribe`);

  expect(scripts).toEqual([]);
  await context.close();

  const wide = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await wide.goto(`/${owner.handle}/${post.blogSlug}`);
  await wide.screenshot({ path: "test-results/post-end-1280.png", fullPage: true });
  await wide.close();
});

test("a post prints without the feeds' links and with its links written out", async ({ browser }) => {
  const owner = { name: "Print Owner", handle: `print-${Date.now().toString(36)}`, email: `print-${Date.now().toString(36)}@example.test` };
  const page = await browser.newPage();
  await signUp(page, owner);
  const post = await createPublicBlog(page, { title: "For paper", content: "See [the spec](https://example.org/spec)." });
  await page.goto(`/${owner.handle}/${post.blogSlug}`);
  await page.emulateMedia({ media: "print" });
  await expect(page.getByRole("list", { name: "Feeds" })).toBeHidden();
  const after = await page.locator(".markdown a").evaluate((link) => getComputedStyle(link, "::after").content);
  expect(after).toContain("https://example.org/spec");
  await page.close();
});
