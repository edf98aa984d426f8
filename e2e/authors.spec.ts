import { expect, test, type Page } from "@playwright/test";
import pg from "pg";
import { collectProblems, editorState, expectAccessible, openSettings, publishNow, signUp, VIEWPORTS, waitForSave, writeDraft } from "./support";

/**
 * A team's writing in the dashboard (docs/authors.md), at a phone's and a laptop's width: a
 * contributor's draft is theirs in the author picker, "Submit for review" marks it "In review" in
 * the editor and the list; the owner adds themself as an author, makes themself primary and
 * publishes, which clears the mark. axe-core clean at each step.
 */

/** Makes the person with `memberEmail` a `role` of the publication founded by `ownerEmail`, leaving their own (as the members page will). */
async function joinPublication(ownerEmail: string, memberEmail: string, role: string): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string; email: string }>(`SELECT "id", "email" FROM "user" WHERE "email" = ANY ($1::text[])`, [[ownerEmail, memberEmail]]);
    const owner = rows.find((row) => row.email === ownerEmail)!.id;
    const member = rows.find((row) => row.email === memberEmail)!.id;
    await client.query(`INSERT INTO "member" ("id", "organizationId", "userId", "role", "createdAt") VALUES (gen_random_uuid()::text, $1, $2, $3, now())`, [owner, member, role]);
    await client.query(`DELETE FROM "member" WHERE "organizationId" = $1 AND "userId" = $1`, [member]);
  } finally {
    await client.end();
  }
}

async function shot(page: Page, name: string) {
  await page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });
}

/** Closes the settings sheet on a phone (the side panel stays open on a laptop). */
async function closeSettings(page: Page) {
  if ((page.viewportSize()?.width ?? 0) < 1024) await page.getByRole("dialog", { name: "Settings" }).getByRole("button", { name: "Close" }).click();
}

for (const viewport of VIEWPORTS) {
  test(`authors and review at ${viewport.width}×${viewport.height}`, async ({ browser }) => {
    test.setTimeout(180_000);
    const run = `${viewport.name}-${Date.now().toString(36)}`;
    const size = { viewport: { width: viewport.width, height: viewport.height } };
    const ownerContext = await browser.newContext(size);
    const writerContext = await browser.newContext(size);
    const ownerPage = await ownerContext.newPage();
    const writer = await writerContext.newPage();
    const problems = [collectProblems(ownerPage, () => false), collectProblems(writer, () => false)];
    const ownerEmail = `olive-${run}@example.test`;
    const writerEmail = `cora-${run}@example.test`;
    await signUp(ownerPage, { name: "Olive Owner", handle: `olive-${run}`, email: ownerEmail });
    await signUp(writer, { name: "Cora Contributor", handle: `cora-${run}`, email: writerEmail });
    // Joined behind the page's back (the database): the writer's dashboard, open since sign-up as
    // their own publication's owner, is left first (its queries would refetch as a contributor's
    // and be refused), then loaded again as a contributor's, as the invitation page does (e2e/members.spec.ts).
    await writer.goto("about:blank");
    await joinPublication(ownerEmail, writerEmail, "contributor");
    await writer.goto("/dashboard");

    // The contributor's draft is theirs: the picker shows them, primary.
    const path = await writeDraft(writer, "Ready for review", "A draft for the editors.");
    // Their dashboard offers only the sections a contributor can use (docs/teams.md).
    await expect(writer.getByRole("navigation", { name: "Dashboard" }).getByRole("link")).toHaveText([
      "Blogs",
      "Images",
      "Members",
      "Readers",
      "API reference",
      "Account",
    ]);
    let settings = await openSettings(writer);
    const picker = settings.getByTestId("author-picker");
    await expect(picker.getByRole("listitem")).toHaveCount(1);
    await expect(picker.getByRole("listitem").first()).toContainText("Cora Contributor (you)");
    await expect(picker.getByRole("listitem").first()).toContainText("Primary");
    await expect(picker.getByLabel("Add an author")).toContainText("Olive Owner (owner)");
    await expectAccessible(writer, "author picker");
    await shot(writer, "author-picker");
    await closeSettings(writer);

    // Submit for review: marked in the editor and in the list.
    await writer.getByRole("button", { name: "Submit for review" }).click();
    await expect(editorState(writer).getByText("In review", { exact: true })).toBeVisible();
    await expect(writer.getByRole("button", { name: "Submit for review" })).toHaveCount(0);
    await expectAccessible(writer, "editor, in review");
    await shot(writer, "editor-in-review");
    await writer.goto("/dashboard");
    const row = writer.getByTestId("blog-row-ready-for-review");
    await expect(row.getByText("In review", { exact: true })).toBeVisible();
    await expectAccessible(writer, "blog list, in review");
    await shot(writer, "list-in-review");

    // The owner sees the mark, adds themself as an author and makes themself primary.
    await ownerPage.goto(path);
    await expect(editorState(ownerPage).getByText("In review", { exact: true })).toBeVisible();
    settings = await openSettings(ownerPage);
    const ownersPicker = settings.getByTestId("author-picker");
    await expect(ownersPicker.getByRole("listitem").first()).toContainText("Cora Contributor");
    await ownersPicker.getByLabel("Add an author").selectOption({ label: "Olive Owner (owner)" });
    await ownersPicker.getByRole("button", { name: "Add", exact: true }).click();
    await ownersPicker.getByRole("button", { name: "Make primary: Olive Owner" }).click();
    await expect(ownersPicker.getByRole("listitem").first()).toContainText("Olive Owner (you)");
    await expect(ownersPicker.getByRole("listitem").first()).toContainText("Primary");
    await expect(ownersPicker.getByRole("listitem").nth(1)).toContainText("Cora Contributor");
    await expectAccessible(ownerPage, "author picker, two authors");
    await shot(ownerPage, "author-picker-two");
    await closeSettings(ownerPage);
    await waitForSave(ownerPage);

    // Stored in that order: the page afresh shows it so.
    await ownerPage.reload();
    settings = await openSettings(ownerPage);
    await expect(settings.getByTestId("author-picker").getByRole("listitem").first()).toContainText("Olive Owner (you)");
    await closeSettings(ownerPage);

    // Published: the mark goes, in the editor and the list.
    await publishNow(ownerPage);
    await expect(editorState(ownerPage).getByText("In review", { exact: true })).toHaveCount(0);
    await ownerPage.goto("/dashboard");
    await expect(ownerPage.getByTestId("blog-row-ready-for-review").getByText("Published", { exact: true })).toBeVisible();
    await expect(ownerPage.getByTestId("blog-row-ready-for-review").getByText("In review", { exact: true })).toHaveCount(0);

    expect(problems.flat()).toEqual([]);
    await ownerContext.close();
    await writerContext.close();
  });
}
