import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { exportAccount } from "~/server/exports/export-account";
import { expectSuccess } from "../api/expect";
import { call, createTestAccount, db } from "../support/api";
import { seedAccount } from "../exports/seed";

/**
 * The export imported into an empty account gives back every blog (title, slug, content, status,
 * dates, tags, cover) and every image (docs/migrating.md, Export): exported, then sent to
 * POST /api/v1/imports as a Ghost export with its images, followed to its end, compared field by field.
 */

async function exportZip(accountId: string): Promise<Buffer> {
  const output = new PassThrough();
  const chunks: Buffer[] = [];
  output.on("data", (chunk: Buffer) => chunks.push(chunk));
  await exportAccount(db(), accountId, output);
  return Buffer.concat(chunks);
}

/**
 * An image told by its size and format (the seeded ones differ in both): its stored original is
 * processed again when imported, so neither its id nor its bytes' hash stay the same.
 */
const imageLabel = (image: { width: number; height: number; format: string }) => `image:${image.width}x${image.height}.${image.format}`;

/** Our image URLs (bare paths or absolute) by their label: the same picture under another id reads the same. */
async function byContent(accountId: string, markdown: string): Promise<string> {
  const images = await db().image.findMany({ where: { userId: accountId } });
  const label = new Map(images.map((image) => [image.id, imageLabel(image)]));
  return markdown.replace(/(?:https?:\/\/[^\s/()]+)?\/images\/([a-z0-9]+)\/[^\s()]+/g, (url, id: string) => label.get(id) ?? url);
}

async function blogsOf(accountId: string) {
  const blogs = await db().blog.findMany({ where: { userId: accountId }, include: { coverImage: true }, orderBy: { blogSlug: "asc" } });
  return Promise.all(
    blogs.map(async (blog) => ({
      title: blog.title,
      blogSlug: blog.blogSlug,
      description: blog.description,
      content: await byContent(accountId, blog.content),
      status: blog.status,
      publishedAt: blog.publishedAt?.toISOString() ?? null,
      publishAt: blog.publishAt?.toISOString() ?? null,
      createdAt: blog.createdAt.toISOString(),
      tags: blog.tags,
      seoTitle: blog.seoTitle,
      seoDescription: blog.seoDescription,
      cover: blog.coverImage ? imageLabel(blog.coverImage) : null,
    })),
  );
}

describe("export, then import into an empty account", () => {
  it("gives back every blog and image", { timeout: 240_000 }, async () => {
    const { account } = await seedAccount();
    const zip = await exportZip(account.id);
    const target = await createTestAccount();

    const form = new FormData();
    form.set("file", new Blob([new Uint8Array(zip)], { type: "application/zip" }), "export.zip");
    const started = expectSuccess(await call("/imports", { key: target.key, method: "POST", body: form as never }), 202).import;
    expect(started.format).toBe("ghost");
    let finished: { status: string; report: Record<string, unknown>; error: string | null } = started;
    await expect
      .poll(
        async () => {
          finished = expectSuccess(await call(`/imports/${started.id}`, { key: target.key })).import;
          return finished.status;
        },
        { timeout: 90_000, interval: 500 },
      )
      .toMatch(/^(done|failed)$/);
    expect(finished.error).toBeNull();
    expect(finished.status).toBe("done");
    expect(finished.report).toMatchObject({ imported: 3, alreadyImported: 0, failedImages: 0 });

    expect(await blogsOf(target.id)).toEqual(await blogsOf(account.id));
    const images = async (userId: string) => (await db().image.findMany({ where: { userId } })).map(imageLabel).sort();
    expect(await images(target.id)).toEqual(await images(account.id));

    // Imported again: nothing created, nothing changed.
    const again = expectSuccess(await call("/imports", { key: target.key, method: "POST", body: form as never }), 202).import;
    await expect.poll(async () => expectSuccess(await call(`/imports/${again.id}`, { key: target.key })).import.status, { timeout: 90_000, interval: 500 }).toBe("done");
    expect(expectSuccess(await call(`/imports/${again.id}`, { key: target.key })).import.report).toMatchObject({ imported: 0, alreadyImported: 3 });
    expect(await db().blog.count({ where: { userId: target.id } })).toBe(3);
  });
});
