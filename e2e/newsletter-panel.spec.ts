import { randomUUID } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import pg from "pg";
import { collectProblems, editorState, expectAccessible, localInMinutes, signUp, VIEWPORTS, writeDraft } from "./support";

/**
 * Emailing a post from the publish panel (docs/newsletters.md, Emailing a post), at a phone's and
 * a laptop's width: with no subscribers the panel says so and leads to the Subscribers page; with
 * some, "Email to N subscribers", the confirmation's sentence naming them, publishing with it, and
 * the email's progress in the editor's bar, read again while sending. axe-core clean in light and
 * dark; the panel's screenshots for the docs.
 */

/** Runs `sql` on the server's database. */
async function sql(text: string, values: unknown[]): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    await client.query(text, values);
  } finally {
    await client.end();
  }
}

/** `count` active subscribers of the account with this email, confirmed a minute ago (the subscribe flow's end). */
async function seedActiveSubscribers(ownerEmail: string, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    await sql(
      `INSERT INTO "subscriber" ("id", "userId", "email", "status", "source", "confirmedAt", "unsubscribeToken")
       SELECT $2, "id", $3, 'active', 'api', now() - interval '1 minute', $4 FROM "user" WHERE "email" = $1`,
      [ownerEmail, `sub${randomUUID().replaceAll("-", "")}`, `reader-${i}-${randomUUID()}@example.test`, randomUUID()],
    );
  }
}

const publishPanel = (page: Page) => page.getByRole("dialog", { name: "Publish this post" });

for (const viewport of VIEWPORTS) {
  test(`email a post to subscribers from the publish panel at ${viewport.width}×${viewport.height}`, async ({ browser }) => {
    test.setTimeout(180_000);
    const context = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height } });
    const page = await context.newPage();
    const problems = collectProblems(page, () => false);
    const run = `${viewport.name}-${Date.now().toString(36)}`;
    const handle = `letters-${run}`;
    const email = `letters-${run}@example.test`;
    await signUp(page, { name: "Letter Writer", handle, email });

    // No subscribers yet: nothing to tick, a word and the way to the Subscribers page.
    await writeDraft(page, "Spring notes", "What grew this year.");
    await page.getByRole("button", { name: "Publish", exact: true }).click();
    await expect(publishPanel(page).getByText("No one will be emailed: you have no active subscribers yet.")).toBeVisible();
    await expect(publishPanel(page).getByRole("link", { name: "Subscribers" })).toHaveAttribute("href", "/dashboard/subscribers");
    await expect(publishPanel(page).getByRole("checkbox")).toHaveCount(0);
    await expect(publishPanel(page).getByTestId("publish-sentence")).toHaveText(`It will be public at /${handle}/spring-notes now.`);
    await publishPanel(page).getByRole("button", { name: "Cancel", exact: true }).click();

    // Three subscribers: the choice, off until ticked, and the confirmation that names them.
    await seedActiveSubscribers(email, 3);
    await page.reload();
    await page.getByRole("button", { name: "Publish", exact: true }).click();
    const choice = publishPanel(page).getByRole("checkbox", { name: /Email to 3 subscribers/ });
    await expect(choice).not.toBeChecked();
    await expect(publishPanel(page).getByRole("button", { name: "Send test email" })).toBeVisible();
    await expectAccessible(page, "publish panel with the email choice");
    await choice.check();
    await expect(publishPanel(page).getByTestId("publish-sentence")).toHaveText(`It will be public at /${handle}/spring-notes now and emailed to 3 subscribers.`);
    await publishPanel(page).getByLabel("Schedule…").check();
    await publishPanel(page).getByLabel("Publish on").fill(localInMinutes(120));
    await expect(publishPanel(page).getByTestId("publish-sentence")).toContainText(", and be emailed to 3 subscribers then.");
    await publishPanel(page).getByLabel("Publish now").check();
    await expectAccessible(page, "publish panel, emailing");
    // Transitions finished: the colour scheme axe switched back may still be fading.
    await page.screenshot({ path: `docs/screenshots/publish-email-${viewport.width}.png`, animations: "disabled" });

    // Published with it: the email starts, its progress in the bar, read again until it is sent.
    await publishPanel(page).getByRole("button", { name: "Publish now" }).click();
    await expect(editorState(page)).toContainText("Published");
    const progress = page.getByTestId("newsletter-progress");
    await expect(progress).toHaveText(/^(Emailing subscribers: Sent to [0-3] of 3|Emailed: Sent to 3 of 3)/);
    await expectAccessible(page, "editor with the email's progress");
    // The sending job's last step, unless it has already finished (docs/newsletters.md).
    const blogId = new URL(page.url()).pathname.split("/").pop()!;
    await sql(`UPDATE "newsletter" SET "sent" = 3, "status" = 'sent', "finishedAt" = now() WHERE "blogId" = $1 AND "status" = 'sending'`, [blogId]);
    await expect(progress).toHaveText("Emailed: Sent to 3 of 3", { timeout: 10_000 });

    // Unpublished, it is never offered again.
    await page.getByRole("button", { name: "Unpublish" }).click();
    await page.getByRole("dialog", { name: "Unpublish this post?" }).getByRole("button", { name: "Unpublish" }).click();
    await expect(editorState(page)).toContainText("Draft");
    await page.getByRole("button", { name: "Publish", exact: true }).click();
    await expect(publishPanel(page).getByTestId("email-choice")).toHaveCount(0);
    await expect(publishPanel(page).getByTestId("publish-sentence")).toHaveText(`It will be public at /${handle}/spring-notes now.`);
    expect(problems).toEqual([]);
    await context.close();
  });
}
