import { randomUUID } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import pg from "pg";
import { expectAccessible, signUp, VIEWPORTS } from "./support";

/**
 * Authors on the public blog (docs/public-blog.md, Authors): the owner writes a bio in the account
 * settings; a post by two people names both, with their pictures and bios, linking to their author
 * pages; an author's page shows who they are and their posts. Each page passes axe-core (WCAG 2.2
 * A and AA, light and dark) at a phone's and a laptop's width; the author page and the post's
 * authors are screenshot into docs/screenshots/. The second author is written into the blog's
 * "authors" as the editor does (the database of the run, DATABASE_URL).
 */

async function createBlog(page: Page, input: object): Promise<{ blogSlug: string }> {
  const response = await page.request.post("/api/trpc/blogs.create", { data: input, headers: { origin: new URL(page.url()).origin } });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()).result.data.data.blog;
}

test("an owner's bio and a co-author show on the post, and each has an author page that passes axe-core", async ({ page }) => {
  test.setTimeout(240_000);
  const id = randomUUID().slice(0, 8);
  const handle = `ap-${id}`;
  await signUp(page, { name: "Ada Lovelace", handle, email: `ap-${id}@example.test` });

  // The bio, through the account settings' profile form.
  await page.goto("/dashboard/account");
  const bio = page.getByLabel("Bio", { exact: true });
  await bio.fill("Wrote the first program, for an engine not yet built.");
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(page.getByText("Saved.", { exact: true })).toBeVisible();
  await page.reload();
  await expect(page.getByLabel("Bio", { exact: true })).toHaveValue("Wrote the first program, for an engine not yet built.");

  await createBlog(page, { title: "Notes on the engine", content: "Ada alone.", isPublic: true, tags: ["Engines"] });
  const joint = await createBlog(page, { title: "Sketch of the analytical engine", content: "Written together.\n\nA second paragraph.", isPublic: true, tags: ["Engines"] });
  const coAuthor = { id: `e2e${id}`, handle: `cb-${id}`, name: "Charles Babbage" };
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    await client.query(`INSERT INTO "user" ("id", "name", "email", "handle", "bio", "updatedAt") VALUES ($1, $2, $3, $4, $5, now())`, [
      coAuthor.id,
      coAuthor.name,
      `cb-${id}@example.test`,
      coAuthor.handle,
      "Designed the difference engine.\nLucasian Professor of Mathematics.",
    ]);
    const updated = await client.query(`UPDATE "blog" AS b SET "authors" = ARRAY[$1, b."userId"] FROM "organization" AS o WHERE o."id" = b."userId" AND o."handle" = $2 AND b."blogSlug" = $3`, [
      coAuthor.id,
      handle,
      joint.blogSlug,
    ]);
    expect(updated.rowCount).toBe(1);
  } finally {
    await client.end();
  }

  for (const viewport of VIEWPORTS) {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });

    await page.goto(`/${handle}/${joint.blogSlug}`);
    const authors = page.getByRole("region", { name: "Written by" });
    await expect(authors.getByRole("listitem")).toHaveCount(2);
    await expect(authors.getByRole("link", { name: "Charles Babbage" })).toHaveAttribute("href", new RegExp(`/${handle}/authors/${coAuthor.handle}$`));
    await expect(authors.getByText("Lucasian Professor of Mathematics.")).toBeVisible();
    await expect(authors.getByText("Wrote the first program, for an engine not yet built.")).toBeVisible();
    await expectAccessible(page, `post by two authors at ${viewport.width}`);
    await authors.screenshot({ path: `docs/screenshots/post-authors-${viewport.width}.png`, animations: "disabled" });

    await authors.getByRole("link", { name: "Charles Babbage" }).click();
    await expect(page).toHaveURL(new RegExp(`/${handle}/authors/${coAuthor.handle}$`));
    await expect(page.getByRole("heading", { level: 1, name: "Charles Babbage" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Sketch of the analytical engine" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Notes on the engine" })).toHaveCount(0);
    await expectAccessible(page, `author page at ${viewport.width}`);
    await page.screenshot({ path: `docs/screenshots/author-page-${viewport.width}.png`, fullPage: true, animations: "disabled" });

    await page.goto(`/${handle}/authors/${handle}`);
    await expect(page.getByRole("heading", { level: 1, name: "Ada Lovelace" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Notes on the engine" })).toBeVisible();
    await expectAccessible(page, `founder's author page at ${viewport.width}`);
  }
});
