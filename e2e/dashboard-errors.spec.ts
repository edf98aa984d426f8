import { expect, test } from "@playwright/test";
import pg from "pg";

/**
 * A failure on the server's side, as the owner sees it: the generic message and the request id to
 * quote, never the database's text (README, Security).
 */

const run = Date.now().toString(36);
const owner = { name: "Eve Errors", handle: `eve-${run}`, email: `eve-${run}@example.test` };
const trigger = `e2e_forced_failure_${run}`;

test("a database failure shows a generic message with the request id", async ({ page }) => {
  const database = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await database.connect();
  try {
    await page.goto("/sign-up");
    await page.getByLabel("Name", { exact: true }).fill(owner.name);
    await page.getByLabel("Handle", { exact: true }).fill(owner.handle);
    await page.getByLabel("Email", { exact: true }).fill(owner.email);
    await page.getByLabel("Password", { exact: true }).fill("correct-horse-battery");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);

    // Only this owner's inserts fail, with a message that must not reach the page.
    const { rows } = await database.query<{ id: string }>(`SELECT id FROM "user" WHERE email = $1`, [owner.email]);
    await database.query(`
      CREATE FUNCTION "${trigger}"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW."userId" = '${rows[0]!.id}' THEN RAISE EXCEPTION 'secret_internal_detail in relation blog'; END IF;
        RETURN NEW;
      END $$`);
    await database.query(`CREATE TRIGGER "${trigger}" BEFORE INSERT ON "blog" FOR EACH ROW EXECUTE FUNCTION "${trigger}"()`);

    await page.goto("/dashboard/blogs/new");
    // The draft's first autosave creates it.
    const answer = page.waitForResponse((response) => response.url().includes("/api/trpc/blogs.editor.create"));
    await page.getByLabel("Title", { exact: true }).fill("Doomed");
    const requestId = (await answer).headers()["x-request-id"];
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    await expect(
      page.getByText(`Internal server error: please try again, and if it keeps failing, quote request id ${requestId}.`),
    ).toBeVisible();
    await expect(page.getByText("secret_internal_detail")).toHaveCount(0);
  } finally {
    await database.query(`DROP TRIGGER IF EXISTS "${trigger}" ON "blog"`);
    await database.query(`DROP FUNCTION IF EXISTS "${trigger}"()`);
    await database.end();
  }
});
