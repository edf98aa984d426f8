/**
 * `npm run bench:import`: a WordPress export of BENCH_IMPORT_POSTS posts (default 10,000, about
 * 5 KB each, one image per ten posts; bench/wxr.ts) imported in this process as the CLI's
 * `import` runs it (src/server/imports/run-import.ts), into a fresh account of its own database
 * (BENCH_IMPORT_DATABASE, default blogmgr_bench_import, on DATABASE_URL's server, recreated each
 * run). The posts' images are served by a local HTTP server, each a distinct JPEG, so they are
 * fetched, processed and stored as an old site's would be. Prints posts imported per second, the
 * importing process's peak RSS (a process of its own, started once the export is written and
 * uploaded) and the report's figures; bench/README.md, Imports, has them.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { openAsBlob } from "node:fs";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import pg from "pg";
import sharp from "sharp";
import { writeSampleWxr } from "./wxr";

const POSTS = Number(process.env.BENCH_IMPORT_POSTS ?? 10_000);
const serverUrl = process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const database = process.env.BENCH_IMPORT_DATABASE ?? "blogmgr_bench_import";
const log = (line: string) => console.log(`[bench:import] ${line}`);
const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

async function freshDatabase(): Promise<string> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${database}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/** The old site's images: /wp-content/uploads/…/photo-<n>.jpg, a 1200×800 JPEG of its own colour each. */
async function startImageServer(): Promise<{ url: string; close: () => void }> {
  const server = createServer(async (req, res) => {
    const n = Number(/photo-(\d+)\.jpg$/.exec(req.url ?? "")?.[1]);
    if (!Number.isFinite(n)) return void res.writeHead(404).end();
    const jpeg = await sharp({ create: { width: 1200, height: 800, channels: 3, background: { r: n % 256, g: Math.floor(n / 256) % 256, b: 96 } } })
      .jpeg({ quality: 80 })
      .toBuffer();
    res.writeHead(200, { "content-type": "image/jpeg", "content-length": jpeg.length }).end(jpeg);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

if (process.env.BENCH_IMPORT_RUN) {
  // The child: runs the import the parent set up, and answers its time and peak RSS on stdout.
  const { getDb } = await import("~/server/db");
  const { runImport } = await import("~/server/imports/run-import");
  const start = performance.now();
  await runImport(getDb(), process.env.BENCH_IMPORT_RUN);
  console.log(JSON.stringify({ seconds: (performance.now() - start) / 1000, maxRss: process.resourceUsage().maxRSS * 1024 }));
  await getDb().$disconnect();
  process.exit(0);
}

const databaseUrl = await freshDatabase();
// The environment the app's modules read when first imported: this database, and the local image
// server allowed (the webhook URL rules refuse loopback addresses otherwise).
process.env.DATABASE_URL = databaseUrl;
process.env.WEBHOOK_ALLOW_PRIVATE_URLS = "1";
const { applyMigrations } = await import("~/server/db/migrate");
const { getDb } = await import("~/server/db");
const { createAccount } = await import("~/server/accounts/create-account");
const { setPlan } = await import("~/server/accounts/set-plan");
const { createImport } = await import("~/server/imports/imports");

await applyMigrations(databaseUrl);
const db = getDb();
const images = await startImageServer();
const directory = await mkdtemp(join(tmpdir(), "bench-import-"));
try {
  const file = join(directory, "export.xml");
  await writeSampleWxr(file, POSTS, images.url);
  const bytes = (await stat(file)).size;
  log(`${POSTS.toLocaleString("en-US")} posts, ${megabytes(bytes)} WXR`);
  const email = "bench-import@example.com";
  const account = await createAccount(db, { email, password: "bench-import-password", name: "Bench", handle: "bench-import" });
  await setPlan(db, { email, plan: "enterprise" });
  const created = await createImport(db, account.id, { file: await openAsBlob(file), fileName: "export.xml", oldUrl: "https://old-blog.example" }, { queue: false });
  // The import alone in a process of its own, as the CLI's `import` runs it: its peak RSS is the importer's.
  // Not spawnSync: this process's image server answers the child's fetches meanwhile.
  const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url)], { env: { ...process.env, BENCH_IMPORT_RUN: created.id }, stdio: ["ignore", "pipe", "inherit"] });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const [status] = (await once(child, "exit")) as [number | null];
  if (status !== 0) throw new Error(`the import process exited with ${status}`);
  const { seconds, maxRss } = JSON.parse(output) as { seconds: number; maxRss: number };
  const done = await db.import.findUniqueOrThrow({ where: { id: created.id } });
  const report = done.report as { imported: number; images: number; failedImages: number; skipped: number };
  log(`status ${done.status}${done.error ? ` (${done.error})` : ""}: imported ${report.imported}, images ${report.images}, failed images ${report.failedImages}, skipped ${report.skipped}`);
  log(`${seconds.toFixed(1)} s: ${(report.imported / seconds).toFixed(0)} posts/s, ${(bytes / 1024 / 1024 / seconds).toFixed(2)} MB/s`);
  log(`peak RSS of the importing process ${megabytes(maxRss)}`);
} finally {
  images.close();
  await rm(directory, { recursive: true, force: true });
  await db.$disconnect();
}
