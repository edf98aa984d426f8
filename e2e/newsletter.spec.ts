import { expect, test } from "@playwright/test";
import { waitForEmails, waitForLink } from "../tests/support/mailbox";
import { editorState, signUp, writeDraft } from "./support";

/**
 * A newsletter from end to end (docs/newsletters.md): a reader subscribes on the public page with
 * JavaScript off and confirms from the email; the owner publishes a post with "Email to 1
 * subscriber"; the reader receives it (its HTML, as a mail client would show it, is attached to
 * the test report) and unsubscribes from its link. Each page's accessibility is checked in
 * e2e/subscribing.spec.ts and e2e/newsletter-panel.spec.ts.
 */
test("subscribe without JavaScript, confirm, receive a published post by email, unsubscribe from it", async ({ browser }, testInfo) => {
  test.setTimeout(180_000);
  const id = Date.now().toString(36);
  const owner = { name: "Field Notes", handle: `field-${id}`, email: `field-${id}@example.test` };
  const reader = `reader-${id}@example.com`;
  const ownerPage = await browser.newPage();
  await signUp(ownerPage, owner);

  const readerContext = await browser.newContext({ javaScriptEnabled: false });
  const readerPage = await readerContext.newPage();
  await readerPage.goto(`/${owner.handle}`);
  await readerPage.getByLabel("Email address").fill(reader);
  await readerPage.getByRole("button", { name: "Subscribe" }).click();
  await expect(readerPage.getByRole("heading", { level: 1, name: "Check your inbox" })).toBeVisible();
  const { link: confirmation } = await waitForLink(reader);
  await readerPage.goto(confirmation);
  await expect(readerPage.getByRole("heading", { level: 1, name: "You're subscribed to Field Notes" })).toBeVisible();

  await writeDraft(ownerPage, "Swifts are back", "They arrived on the **first warm evening**.\n\n```\nswifts: 14\n```");
  await ownerPage.getByRole("button", { name: "Publish", exact: true }).click();
  const panel = ownerPage.getByRole("dialog", { name: "Publish this post" });
  await panel.getByRole("checkbox", { name: /Email to 1 subscriber/ }).check();
  await panel.getByRole("button", { name: "Publish now" }).click();
  await expect(editorState(ownerPage)).toContainText("Published");
  await expect(ownerPage.getByTestId("newsletter-progress")).toHaveText("Emailed: Sent to 1 of 1", { timeout: 30_000 });

  const [, newsletter] = await waitForEmails(reader, 2, 30_000);
  expect(newsletter!.subject).toBe("Swifts are back");
  expect(newsletter!.fromHeader).toMatch(/^"?Field Notes"? </);
  const unsubscribe = /^<(.+)>$/.exec(newsletter!.headers["list-unsubscribe"] ?? "")?.[1];
  expect(unsubscribe).toMatch(new RegExp(`/${owner.handle}/unsubscribe\\?token=`));
  expect(newsletter!.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");
  expect(newsletter!.text).toContain("first warm evening");

  // The HTML as a mail client shows it: no script, its own inline styles.
  const mail = await browser.newPage({ viewport: { width: 600, height: 900 }, javaScriptEnabled: false });
  await mail.setContent(newsletter!.html);
  await expect(mail.getByRole("heading", { level: 1, name: "Swifts are back" })).toBeVisible();
  await expect(mail.locator("pre")).toContainText("swifts: 14");
  const shot = testInfo.outputPath("newsletter-email.png");
  await mail.screenshot({ path: shot, fullPage: true });
  await testInfo.attach("newsletter email", { path: shot, contentType: "image/png" });
  expect(await mail.getByRole("link", { name: /unsubscribe/i }).first().getAttribute("href")).toBe(unsubscribe);
  await mail.close();

  await readerPage.goto(unsubscribe!);
  await readerPage.getByRole("button", { name: "Unsubscribe" }).click();
  await expect(readerPage.getByRole("heading", { level: 1, name: "You're unsubscribed from Field Notes" })).toBeVisible();
  await readerContext.close();
  await ownerPage.close();
});
