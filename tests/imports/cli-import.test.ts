// `import <file>` as operators run it: a subprocess on a database of its own, running the import
// in process. Its image fetches follow the webhook URL rules: a loopback address is refused unless
// WEBHOOK_ALLOW_PRIVATE_URLS=1 (as webhook tests allow their receiver).
import { createServer, type Server } from "node:http";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PrismaPg } from "@prisma/adapter-pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createScratchDatabase } from "../../scripts/lib/scratch-database";
import { png } from "../images/fixtures";
import { runCli } from "../support/cli";
import { PrismaClient } from "~/generated/prisma/client";
import { createAccount } from "~/server/accounts/create-account";
import { applyMigrations } from "~/server/db/migrate";
import type { ImportView } from "~/shared/imports";
import { zipOf } from "./sources";

vi.setConfig({ testTimeout: 120_000 });

let databaseUrl: string;
let dropDatabase: () => Promise<void>;
let db: PrismaClient;
let tempDir: string;
let images: Server;
let imageUrl: string;

beforeAll(async () => {
  ({ url: databaseUrl, drop: dropDatabase } = await createScratchDatabase(process.env.DATABASE_URL, "blogmgr_cli_import"));
  await applyMigrations(databaseUrl);
  db = new PrismaClient({ adapter: new PrismaPg({ connectionString: databaseUrl }) });
  tempDir = await mkdtemp(join(tmpdir(), "blogmgr-import-"));
  const bytes = await png();
  images = createServer((_req, res) => res.writeHead(200, { "content-type": "image/png" }).end(bytes));
  await new Promise<void>((resolve) => images.listen(0, "127.0.0.1", resolve));
  imageUrl = `http://127.0.0.1:${(images.address() as AddressInfo).port}/remote.png`;
}, 60_000);

afterAll(async () => {
  images?.close();
  await db?.$disconnect();
  await dropDatabase?.();
  if (tempDir) await rm(tempDir, { recursive: true, force: true });
});

async function importAs(email: string, allowPrivate: "0" | "1", oldUrl?: string) {
  const file = join(tempDir, `${email}.zip`);
  await writeFile(file, await zipOf({ "posts/remote.md": `---\ntitle: Remote\ntags: a, b\n---\n![r](${imageUrl})\n` }));
  const args = ["import", file, "--email", email, ...(oldUrl ? ["--old-url", oldUrl] : [])];
  return runCli(args, { DATABASE_URL: databaseUrl, WEBHOOK_ALLOW_PRIVATE_URLS: allowPrivate });
}

describe("import <file>", () => {
  it("runs the import in process; a loopback image is refused under the URL rules and keeps its URL", async () => {
    const account = await createAccount(db, { email: "cli-import-a@example.test", password: "password-123" });
    const run = await importAs(account.email, "0");
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout) as ImportView;
    expect(result).toMatchObject({ status: "done", format: "markdown", report: { imported: 1, images: 0, failedImages: 1 } });
    expect(result.report.failedImageItems[0]).toMatchObject({ url: imageUrl, reason: expect.stringMatching(/^refused: .*public/) });
    const blog = await db.blog.findFirstOrThrow({ where: { userId: account.id } });
    expect(blog.content).toContain(imageUrl);
    expect(blog.tags).toEqual(["a", "b"]);
  });

  it("fetches an image from a server the settings allow, and the Markdown points to ours", async () => {
    const account = await createAccount(db, { email: "cli-import-b@example.test", password: "password-123" });
    const run = await importAs(account.email, "1");
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ status: "done", report: { imported: 1, images: 1, failedImages: 0 } });
    const image = await db.image.findFirstOrThrow({ where: { userId: account.id } });
    const blog = await db.blog.findFirstOrThrow({ where: { userId: account.id } });
    expect(blog.content).toContain(`/images/${image.id}/`);
    expect(blog.importId).toBe(image.importId);
  });

  it("refuses a file that is no export, and an unknown owner, with one line and exit code 1", async () => {
    const file = join(tempDir, "notes.txt");
    await writeFile(file, "hello");
    const refused = await runCli(["import", file, "--email", "cli-import-a@example.test"], { DATABASE_URL: databaseUrl });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^import: .*not an export we read/);
    const missing = await runCli(["import", "--email", "cli-import-a@example.test"], { DATABASE_URL: databaseUrl });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("the file is required");
  });
});
