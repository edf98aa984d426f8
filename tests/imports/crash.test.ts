import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { PrismaPg } from "@prisma/adapter-pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import sharp from "sharp";
import { WXR_SITE, WXR_TAIL, wxrHead, wxrItem } from "../../bench/wxr";
import { startProductionServer, type RunningServer } from "../../scripts/lib/next-server";
import { createScratchDatabase } from "../../scripts/lib/scratch-database";
import { until } from "../newsletters/support";
import { serverLogFile } from "../support/server-logs";
import { PrismaClient } from "~/generated/prisma/client";
import { createAccount } from "~/server/accounts/create-account";
import { applyMigrations } from "~/server/db/migrate";
import { createApiKey } from "~/server/keys/create-api-key";
import { PERMISSIONS } from "~/shared/permissions";
import { startImport, untilFinished } from "./support";

/**
 * A server killed (SIGKILL) in the middle of an import, then started again (docs/migrating.md, How
 * an import runs): the import resumes on the new server's worker and ends done, every post once.
 * On a database of its own, so that only the servers started here run the import's job.
 */
vi.setConfig({ testTimeout: 150_000, hookTimeout: 120_000 });

const POSTS = 1_500;
/** A comment on every fifth post; an image (each its own) in every fiftieth, served here. */
const COMMENTS = POSTS / 5;
const IMAGES = POSTS / 50;

let databaseUrl: string;
let dropDatabase: () => Promise<void>;
let db: PrismaClient;
const servers: RunningServer[] = [];
let images: Server;
let imageBase: string;

beforeAll(async () => {
  const pictures = await Promise.all(
    Array.from({ length: IMAGES }, (_, index) => sharp({ create: { width: 8, height: 8, channels: 3, background: { r: index * 8, g: 64, b: 128 } } }).png().toBuffer()),
  );
  images = createServer((req, res) => {
    const picture = pictures[Number(/^\/photo-(\d+)\.png$/.exec(req.url ?? "")?.[1] ?? -1)];
    if (picture) res.writeHead(200, { "content-type": "image/png" }).end(picture);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => images.listen(0, "127.0.0.1", resolve));
  imageBase = `http://127.0.0.1:${(images.address() as AddressInfo).port}`;
  ({ url: databaseUrl, drop: dropDatabase } = await createScratchDatabase(process.env.DATABASE_URL, "blogmgr_import_crash"));
  await applyMigrations(databaseUrl);
  db = new PrismaClient({ adapter: new PrismaPg({ connectionString: databaseUrl }) });
});

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  images?.close();
  await db?.$disconnect();
  await dropDatabase?.();
});

/** A WordPress export of POSTS posts, a few paragraphs each (the loopback image server is allowed in tests: WEBHOOK_ALLOW_PRIVATE_URLS). */
function exportXml(): Buffer {
  const items = Array.from({ length: POSTS }, (_, index) =>
    wxrItem({
      id: index + 1,
      title: `Harbour log ${index + 1}`,
      slug: `harbour-log-${index + 1}`,
      content: [`Day ${index + 1} at the harbour.`, "<h2>Boats</h2>", "Ferries, gulls and <em>tides</em>.", ...(index % 50 === 0 ? [`<img src="${imageBase}/photo-${index / 50}.png" alt="Photo ${index / 50}">`] : [])].join("\n\n"),
      tags: ["harbour"],
      comments: index % 5 === 0 ? [{ id: index + 1, author: "A reader", content: "Lovely." }] : [],
    }),
  );
  return Buffer.from(wxrHead() + items.join("") + WXR_TAIL);
}

/**
 * A server with its job worker, once the worker has started: on a fresh database its first start
 * installs graphile-worker's schema after the server answers, and a job queued meanwhile can fail.
 */
const start = async () => {
  let output = "";
  let workerStarted = () => {};
  const started = new Promise<void>((resolve) => (workerStarted = resolve));
  const onOutput = (chunk: Buffer) => {
    output += chunk.toString();
    if (output.includes("Job worker started")) workerStarted();
  };
  const server = await startProductionServer({ ...process.env, DATABASE_URL: databaseUrl, WEBHOOK_WORKER: "1" }, { logFile: serverLogFile(), onOutput });
  servers.push(server);
  await started;
  return server;
};

describe("a server killed mid-import", () => {
  it("resumes on restart, and makes every post once", async () => {
    const account = await createAccount(db, { email: "import-crash@example.test", password: "password-123", plan: "enterprise" });
    const { key } = await createApiKey(db, { accountId: account.id, name: "crash", permissions: [...PERMISSIONS] });
    const blogs = () => db.blog.count({ where: { userId: account.id } });

    const first = await start();
    const { id } = await startImport(key, exportXml(), { oldUrl: WXR_SITE, name: "export.xml", baseUrl: first.baseUrl });
    await until(async () => (await blogs()) >= POSTS / 5, 60_000, `${POSTS / 5} posts are imported`);
    process.kill(first.pid, "SIGKILL");
    await first.stop();
    const beforeRestart = await blogs();
    expect(beforeRestart).toBeLessThan(POSTS);
    expect(await db.import.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: "running" });

    const second = await start();
    const done = await untilFinished(key, id, { baseUrl: second.baseUrl, timeoutMs: 90_000 });
    expect(done.error).toBeNull();
    expect(done.status).toBe("done");
    expect(done.report).toMatchObject({ imported: POSTS, alreadyImported: 0, images: IMAGES, failedImages: 0, skippedByKind: { comment: COMMENTS } });
    expect(done.progress).toEqual({ processed: POSTS + COMMENTS, total: POSTS + COMMENTS });

    // Every post once, under its own slug (a post half made before the kill would have left its slug taken: "-2").
    const made = await db.blog.findMany({ where: { userId: account.id }, select: { blogSlug: true, importSourceId: true, importId: true, content: true } });
    expect(made).toHaveLength(POSTS);
    expect(new Set(made.map((blog) => blog.importSourceId)).size).toBe(POSTS);
    expect(made.every((blog) => blog.importId === id)).toBe(true);
    expect(made.filter((blog) => !/^harbour-log-\d+$/.test(blog.blogSlug)).map((blog) => blog.blogSlug)).toEqual([]);
    // Every image once, each in the post that uses it: none left behind by a post the kill cut short.
    const stored = await db.image.findMany({ where: { userId: account.id }, select: { id: true, importId: true } });
    expect(stored).toHaveLength(IMAGES);
    for (const image of stored) {
      expect(image.importId).toBe(id);
      expect(made.filter((blog) => blog.content.includes(`/images/${image.id}/`))).toHaveLength(1);
    }
    expect(await db.importedPermalink.count({ where: { importId: id } })).toBe(POSTS);
    expect(await db.importChunk.count({ where: { importId: id } })).toBe(0);
  });
});
