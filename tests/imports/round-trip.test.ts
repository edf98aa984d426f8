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

/** Our image URLs (bare paths or absolute) named by the image's bytes' hash: the same picture under another id reads the same. */
async function byContent(accountId: string, markdown: string): Promise<string> {
  const images = await db().image.findMany({ where: { userId: accountId }, select: { id: true, sha256: true } });
  const hash = new Map(images.map((image) => [image.id, image.sha256]));
  return markdown.replace(/(?:https?:\/\/[^\s/()]+)?\/images\/([a-z0-9]+)\/[^\s()]+/g, (url, id: string) => `image:${hash.get(id) ?? url}`);
}

async function blogsOf(accountId: string) {
  const blogs = await db().blog.findMany({ where: { userId: accountId }, include: { coverImage: { select: { sha256: true } } }, orderBy: { blogSlug: "asc" } });
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
      cover: blog.coverImage?.sha256 ?? null,
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
    const hashes = async (userId: string) => (await db().image.findMany({ where: { userId }, select: { sha256: true } })).map((image) => image.sha256).sort();
    expect(await hashes(target.id)).toEqual(await hashes(account.id));

    // Imported again: nothing created, nothing changed.
    const again = expectSuccess(await call("/imports", { key: target.key, method: "POST", body: form as never }), 202).import;
    await expect.poll(async () => expectSuccess(await call(`/imports/${again.id}`, { key: target.key })).import.status, { timeout: 90_000, interval: 500 }).toBe("done");
    expect(expectSuccess(await call(`/imports/${again.id}`, { key: target.key })).import.report).toMatchObject({ imported: 0, alreadyImported: 3 });
    expect(await db().blog.count({ where: { userId: target.id } })).toBe(3);
  });
});
