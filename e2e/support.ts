import AxeBuilder from "@axe-core/playwright";
import { expect, test, type APIRequestContext, type APIResponse, type Page } from "@playwright/test";
import sharp from "sharp";
import { fromBuffer, type Entry } from "yauzl";
import { IMPORT_PROCEDURE, UPLOAD_REQUEST_HEADER } from "~/shared/dashboard-limits";
import { waitForLink } from "../tests/support/mailbox";
export { zipOf } from "../tests/support/zip";

export const PASSWORD = "correct-horse-battery";

/**
 * Creates the account through the sign-up form; the new owner lands on the dashboard and (unless
 * `verify` is false) confirms the address by the link the mailbox received.
 */
export async function signUp(page: Page, account: { name: string; handle: string; email: string }, { verify = true } = {}): Promise<void> {
  await page.goto("/sign-up");
  await page.getByLabel("Name", { exact: true }).fill(account.name);
  await page.getByLabel("Handle", { exact: true }).fill(account.handle);
  await page.getByLabel("Email", { exact: true }).fill(account.email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  // The form signs in once signed up (docs/security.md, No account enumeration), which can be refused for the minute too.
  const signedIn = page.waitForResponse((response) => response.url().includes("/api/auth/sign-in/email"), { timeout: 120_000 });
  await submitWaitingOutLimit(page, "Create account", "/api/auth/sign-up/email");
  if ((await signedIn).status() === 429) {
    await page.goto("/sign-in");
    await page.getByLabel("Email", { exact: true }).fill(account.email);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await submitWaitingOutLimit(page, "Sign in", "/api/auth/sign-in/email");
  }
  // The first sign-up of a freshly started server can be slow on a loaded machine.
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 30_000 });
  if (!verify) return;
  // Followed with the page's cookies, then the dashboard shown afresh: confirmed, without the banner.
  const { link } = await waitForLink(account.email);
  const followed = await page.request.get(link, { maxRedirects: 0 });
  expect(followed.headers().location).toBe("/dashboard?verified=1");
  await page.goto("/dashboard");
}

/**
 * Clicks `button` and waits for the answer of `endpoint` (under /api/auth). The browser specs sign
 * up owners and check passwords more often a minute than one address may (docs/security.md): a
 * refused attempt (429) waits for the next window and clicks again, as a person would, after `fill`.
 */
export async function submitWaitingOutLimit(page: Page, button: string, endpoint: string, { fill }: { fill?: () => Promise<void> } = {}): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    // What goes stale while the limit is waited out (an authenticator app's code) is filled anew.
    await fill?.();
    const answer = page.waitForResponse((response) => response.url().includes(endpoint), { timeout: 30_000 });
    await page.getByRole("button", { name: button, exact: true }).click();
    if ((await answer).status() !== 429 || attempt === 4) return;
    test.info().setTimeout(test.info().timeout + 25_000);
    await page.waitForTimeout(20_000);
  }
}

/** `submitWaitingOutLimit` for a spec's own request to /api/auth: a 429 waits for the next window and posts again. */
export async function postWaitingOutLimit(request: APIRequestContext, url: string, options: Parameters<APIRequestContext["post"]>[1]): Promise<APIResponse> {
  for (let attempt = 1; ; attempt++) {
    const response = await request.post(url, options);
    if (response.status() !== 429 || attempt === 4) return response;
    test.info().setTimeout(test.info().timeout + 25_000);
    await new Promise((resolve) => setTimeout(resolve, 20_000));
  }
}

/** An /api/auth attempt refused for the minute (429), which `submitWaitingOutLimit` waits out: not a problem of the page. */
export const authLimitWaitedOut = (url: string, text: string) => url.includes("/api/auth/") && text.includes("429");

/**
 * What went wrong on `page` while a spec ran: uncaught exceptions, failed responses and the errors
 * the browser logs for them, except the refusals the spec provokes itself (`provoked`, by URL) and a
 * /api/auth attempt refused for the minute, which `submitWaitingOutLimit` waits out.
 */
export function collectProblems(page: Page, provoked: (url: string) => boolean): string[] {
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(error.message));
  page.on("response", (response) => {
    const line = `${response.status()} ${response.request().method()} ${response.url()}`;
    if (response.status() >= 400 && !provoked(response.url()) && !authLimitWaitedOut(response.url(), line)) problems.push(line);
  });
  page.on("console", (message) => {
    const { url } = message.location();
    if (message.type() === "error" && !provoked(url) && !authLimitWaitedOut(url, message.text())) problems.push(`${message.text()} (${url})`);
  });
  return problems;
}

/** A phone's and a laptop's viewport: every page is checked at both (README, Security). */
export const VIEWPORTS = [
  { name: "phone", width: 390, height: 844 },
  { name: "laptop", width: 1280, height: 800 },
];

const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"];

/** axe-core's WCAG 2.2 A and AA violations on the page as it is now, one line each: rule, impact, help and the elements. */
export async function axeViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  return results.violations.map(
    (violation) =>
      `${violation.id} (${violation.impact}): ${violation.help}, ${violation.nodes.length} element(s): ${violation.nodes
        .slice(0, 5)
        .map((node) => node.target.join(" "))
        .join(" | ")}`,
  );
}

/**
 * Fails the spec, naming `label`, when axe-core finds a WCAG 2.2 A or AA violation on the page at
 * rest, in the colour scheme it is shown in and then in the other one (the dashboard and the public
 * pages follow the system's: every view and dialog is checked light and dark), the page's own scheme
 * back afterwards. Running transitions end first (a button turning from its busy colour to its own,
 * in 150 ms, has too little contrast halfway).
 */
export async function expectAccessible(page: Page, label: string): Promise<void> {
  const shown = (await page.evaluate(() => matchMedia("(prefers-color-scheme: dark)").matches)) ? "dark" : "light";
  const other = shown === "dark" ? "light" : "dark";
  for (const scheme of [shown, other] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await transitionsEnded(page);
    expect(await axeViolations(page), `${label} (${scheme})`).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: shown });
}

/** Once the page's running transitions and animations have ended (a spinner's go on for ever: not those). */
async function transitionsEnded(page: Page): Promise<void> {
  // Two frames first: a transition started by a change of scheme exists only once styles are recomputed.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity) // not a spinner's
        // A transition cut short (its element gone, its value changed again) rejects: nothing to wait for.
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
}

/** A PNG of one colour, made here rather than kept as a file. */
export const pngBytes = (width: number, height: number, colour: string) => sharp({ create: { width, height, channels: 3, background: colour } }).png().toBuffer();

/** An image uploaded with the page's session as the editor uploads it (src/components/dashboard/upload-image.ts); its ImageView. */
export async function uploadImage(page: Page, bytes: Buffer, name = "image.png") {
  const response = await page.request.post("/api/trpc/images.upload", {
    multipart: { file: { name, mimeType: "image/png", buffer: bytes } },
    headers: { origin: new URL(page.url()).origin, [UPLOAD_REQUEST_HEADER.name]: UPLOAD_REQUEST_HEADER.value },
  });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()).result.data.data.image;
}

/** The names of the entries of the zip `bytes` (a downloaded export). */
export function zipEntryNames(bytes: Buffer): Promise<string[]> {
  return new Promise((resolve, reject) =>
    fromBuffer(bytes, { lazyEntries: true }, (error, zip) => {
      if (error) return reject(error);
      const names: string[] = [];
      zip.on("entry", (entry: Entry) => {
        names.push(entry.fileName);
        zip.readEntry();
      });
      zip.on("end", () => resolve(names));
      zip.on("error", reject);
      zip.readEntry();
    }),
  );
}

/** An export uploaded with the page's session as the Import & export page sends it (src/components/dashboard/import-export-panel.tsx). */
export async function startImport(page: Page, bytes: Buffer, name: string) {
  const response = await page.request.post(`/api/trpc/${IMPORT_PROCEDURE}`, {
    multipart: { file: { name, mimeType: "application/zip", buffer: bytes } },
    headers: { origin: new URL(page.url()).origin, [UPLOAD_REQUEST_HEADER.name]: UPLOAD_REQUEST_HEADER.value },
  });
  expect(response.status(), await response.text()).toBeLessThan(300);
}

/** The editor's bar: the blog's status and its save state (src/components/dashboard/blog-form.tsx). */
export const editorState = (page: Page) => page.getByTestId("blog-state");

/**
 * A new blog written in the editor: its title (and content) typed, then saved as a draft by
 * autosave, which gives the page the blog's own address; answers that path.
 */
export async function writeDraft(page: Page, title: string, content?: string): Promise<string> {
  await page.goto("/dashboard/blogs/new");
  await page.getByLabel("Title", { exact: true }).fill(title);
  if (content !== undefined) await page.getByLabel("Content (Markdown)").fill(content);
  await expect(page).toHaveURL(/\/dashboard\/blogs\/(?!new$)[^/?]+$/);
  await waitForSave(page);
  return new URL(page.url()).pathname;
}

/** Waits until the editor has saved what it holds (autosave, or the action just clicked). */
export async function waitForSave(page: Page): Promise<void> {
  await expect(editorState(page)).toContainText(/Saved /);
}

/** Publishes the blog open in the editor now, through the Publish panel's confirmation. */
export async function publishNow(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Publish", exact: true }).click();
  await page.getByRole("dialog", { name: "Publish this post" }).getByRole("button", { name: "Publish now" }).click();
  await expect(editorState(page)).toContainText("Published");
}

/** The local "YYYY-MM-DDTHH:mm" of a moment `minutes` from now, as a datetime-local input takes it. */
export function localInMinutes(minutes: number): string {
  const at = new Date(Date.now() + minutes * 60_000);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

/** Opens the editor's settings: the side panel is open from 1024 px up; below, the Settings sheet. Answers where they are. */
export async function openSettings(page: Page) {
  const wide = (page.viewportSize()?.width ?? 0) >= 1024;
  if (wide) return page.getByRole("complementary", { name: "Settings" });
  await page.getByRole("button", { name: "Settings", exact: true }).click();
  return page.getByRole("dialog", { name: "Settings" });
}
