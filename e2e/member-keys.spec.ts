import { randomUUID } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import pg from "pg";
import { runCli } from "../tests/support/cli";
import { expectAccessible, PASSWORD, submitWaitingOutLimit, VIEWPORTS } from "./support";

/**
 * The keys page as members of a publication see it (docs/teams.md, Keys), on a phone and a laptop,
 * axe-clean: an author is offered only the permissions their role may give, makes a key with them,
 * and sees who made each key, "a former member" once its maker has left; a contributor, who makes
 * no keys, is told so.
 */

/** A person made with the operator CLI; returns their user id (their own publication's too). */
async function person(email: string, name: string): Promise<string> {
  const { code, stdout, stderr } = await runCli(["user", "create", "--email", email, "--password", PASSWORD, "--name", name]);
  if (code !== 0) throw new Error(stderr);
  return (JSON.parse(stdout) as { id: string }).id;
}

async function sql(text: string, values: unknown[]): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    await client.query(text, values);
  } finally {
    await client.end();
  }
}

/** `userId` works in `publicationId` alone, with `role`: their own publication removed, a member row as an accepted invitation leaves it. */
async function joinAs(userId: string, publicationId: string, role: string): Promise<void> {
  await sql(`DELETE FROM "organization" WHERE "id" = $1`, [userId]);
  await sql(`INSERT INTO "member" ("id", "organizationId", "userId", "role", "createdAt") VALUES ($1, $2, $3, $4, now())`, [`mem${randomUUID()}`, publicationId, userId, role]);
}

async function signIn(page: Page, email: string): Promise<void> {
  await page.goto("/sign-in");
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await submitWaitingOutLimit(page, "Sign in", "/api/auth/sign-in/email");
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 30_000 });
}

for (const viewport of VIEWPORTS) {
  test.describe(`members' keys on a ${viewport.name}`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test(`an author's and a contributor's keys page (${viewport.width} px)`, async ({ browser }) => {
      // Four people made with the CLI (a process each), three sign-ins, axe twice in two schemes.
      test.setTimeout(240_000);
      const tag = randomUUID().slice(0, 8);
      const authorEmail = `author-${tag}@example.test`;
      const editorEmail = `editor-${tag}@example.test`;
      const contributorEmail = `contributor-${tag}@example.test`;
      const [ownerId, authorId, editorId, contributorId] = await Promise.all([
        person(`owner-${tag}@example.test`, "Olive Owner"),
        person(authorEmail, "Ada Author"),
        person(editorEmail, "Eve Editor"),
        person(contributorEmail, "Cy Contributor"),
      ]);
      await joinAs(authorId, ownerId, "author");
      await joinAs(editorId, ownerId, "editor");
      await joinAs(contributorId, ownerId, "contributor");

      // The editor makes a key, then leaves the publication: the key stays, "a former member"'s.
      const editorContext = await browser.newContext();
      const editorPage = await editorContext.newPage();
      await signIn(editorPage, editorEmail);
      const made = await editorPage.request.post("/api/trpc/keys.create", {
        headers: { origin: new URL(editorPage.url()).origin },
        data: { name: "Editor's deploy key", permissions: ["read:blogs", "write:blogs"] },
      });
      expect(made.status()).toBe(200);
      await editorContext.close();
      await sql(`DELETE FROM "member" WHERE "userId" = $1`, [editorId]);

      const context = await browser.newContext();
      const page = await context.newPage();
      await signIn(page, authorEmail);
      await page.goto("/dashboard/keys");
      const permissions = page.getByRole("group", { name: "Permissions" });
      await expect(permissions.getByRole("checkbox")).toHaveCount(2);
      await expect(permissions.getByRole("checkbox", { name: /read:blogs/ })).toBeChecked();
      await expect(permissions.getByRole("checkbox", { name: /read:analytics/ })).not.toBeChecked();
      await page.getByLabel("Name", { exact: true }).fill("Author's reader");
      await page.getByRole("button", { name: "Create key" }).click();
      await expect(page.getByRole("dialog")).toBeVisible();
      await page.getByRole("button", { name: "I have stored the key" }).click();
      await expect(page.getByTestId("key-row-Author's reader").getByText("Ada Author", { exact: true })).toBeVisible();
      await expect(page.getByTestId("key-row-Editor's deploy key").getByText("a former member", { exact: true })).toBeVisible();
      await expectAccessible(page, `author's keys page at ${viewport.width} px`);
      await page.screenshot({ path: `test-results/member-keys-author-${viewport.width}.png`, fullPage: true });
      await context.close();

      const contributorContext = await browser.newContext();
      const contributorPage = await contributorContext.newPage();
      await signIn(contributorPage, contributorEmail);
      await contributorPage.goto("/dashboard/keys");
      await expect(contributorPage.getByText("Contributors make no API keys")).toBeVisible();
      await expect(contributorPage.getByRole("button", { name: "Create key" })).toHaveCount(0);
      await expectAccessible(contributorPage, `contributor's keys page at ${viewport.width} px`);
      await contributorPage.screenshot({ path: `test-results/member-keys-contributor-${viewport.width}.png`, fullPage: true });
      await contributorContext.close();
    });
  });
}
