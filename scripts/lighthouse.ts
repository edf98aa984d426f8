/**
 * `npm run lighthouse`: Lighthouse (mobile preset, its default: a mid-range phone on slow 4G with
 * simulated throttling) on the production build, in Debian's Chromium (or CHROMIUM_PATH), against
 * a public blog with a 20 KB Markdown body, its owner's index, a search of their blogs and their
 * author page (docs/public-blog.md). Prints the
 * four category scores of each, writes the JSON reports under lighthouse-reports/ (not in git),
 * and exits 1 when a target is missed: performance at least 95, the others 100. A fresh database
 * on DATABASE_URL's server (embedded PostgreSQL without one); SKIP_BUILD=1 reuses the last build.
 */
import { spawnSync } from "node:child_process";
import { insertAccount } from "./lib/seed-account";
import { mkdir, writeFile } from "node:fs/promises";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import pg from "pg";
import { longMarkdown } from "../bench/public-seed";
import { applyMigrations } from "../src/server/db/migrate";
import { chromiumExecutable } from "./lib/chromium";
import { startProductionServer } from "./lib/next-server";
import { createScratchDatabase } from "./lib/scratch-database";

const TARGETS = { performance: 95, accessibility: 100, "best-practices": 100, seo: 100 } as const;
/**
 * Audits a page fails by design, not counted as a miss (but printed): search answers carry
 * `noindex` (docs/public-blog.md, Search), which Lighthouse's is-crawlable audit scores 0.
 */
const BY_DESIGN: Record<string, Record<string, string>> = { search: { "is-crawlable": "search answers are noindex by design (docs/public-blog.md, Search)" } };
const REPORT_DIR = "lighthouse-reports";

if (process.env.SKIP_BUILD !== "1" && spawnSync("npm", ["run", "build"], { stdio: "inherit" }).status !== 0) process.exit(1);
const database = await createScratchDatabase(process.env.DATABASE_URL, "blogmgr_lighthouse");
await applyMigrations(database.url);
const client = new pg.Client({ connectionString: database.url });
await client.connect();
// One reader's view: an account with 25 public blogs, the newest the long one, by its owner (with a bio: their author page).
await insertAccount(client, { id: "lh_owner", name: "Ada Reader", email: "ada@lighthouse.example", handle: "ada-reader", plan: "free" });
await client.query(`UPDATE "user" SET "bio" = 'Reads slowly, writes it down.' WHERE "id" = 'lh_owner'`);
await client.query(
  `INSERT INTO "blog" ("id", "userId", "title", "blogSlug", "description", "content", "tags", "isPublic", "createdAt", "updatedAt")
   SELECT 'lh_' || g, 'lh_owner', 'Notes on reading, part ' || g, 'notes-' || g, 'What part ' || g || ' of the series is about, in a sentence.',
          CASE WHEN g = 25 THEN $1 ELSE 'A short post.' END, ARRAY['Reading'], true, now() - (25 - g) * interval '1 day', now()
   FROM generate_series(1, 25) AS g`,
  [longMarkdown()],
);
await client.end();

const server = await startProductionServer({ ...process.env, DATABASE_URL: database.url, NODE_ENV: "production" });
const chrome = await chromeLauncher.launch({ chromePath: chromiumExecutable(), chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu"] });
let missed = false;
try {
  await mkdir(REPORT_DIR, { recursive: true });
  const pages = [
    ["post", "/ada-reader/notes-25"],
    ["index", "/ada-reader"],
    ["search", "/ada-reader/search?q=reading+part"],
    ["author", "/ada-reader/authors/ada-reader"],
  ] as const;
  for (const [name, path] of pages) {
    const url = server.baseUrl + path;
    // Once unmeasured: the first request makes the page (a cache miss), which a reader rarely meets.
    await fetch(url);
    const result = await lighthouse(url, { port: chrome.port, output: "json", logLevel: "error" });
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    await writeFile(`${REPORT_DIR}/${name}.json`, result.report as string);
    const { categories, audits } = result.lhr;
    const scores = Object.fromEntries(Object.keys(TARGETS).map((id) => [id, Math.round((categories[id]?.score ?? 0) * 100)])) as Record<keyof typeof TARGETS, number>;
    const failing = (Object.keys(TARGETS) as (keyof typeof TARGETS)[]).filter((id) => scores[id] < TARGETS[id]);
    const lostOn = (id: string) => (categories[id]?.auditRefs ?? []).filter((ref) => ref.weight > 0 && (audits[ref.id]?.score ?? 1) < 1).map((ref) => ref.id);
    missed ||= failing.some((id) => lostOn(id).some((audit) => !BY_DESIGN[name]?.[audit]));
    const metrics = ["first-contentful-paint", "largest-contentful-paint", "total-blocking-time", "cumulative-layout-shift", "speed-index"].map((id) => `${id} ${audits[id]?.displayValue ?? "?"}`);
    console.log(`[lighthouse] ${name} ${path}: ${Object.entries(scores).map(([id, score]) => `${id} ${score}`).join(", ")}${failing.length ? ` (below target: ${failing.join(", ")})` : ""}`);
    console.log(`[lighthouse]   ${metrics.join(", ")}; report ${REPORT_DIR}/${name}.json (Lighthouse ${result.lhr.lighthouseVersion})`);
    for (const id of failing) {
      const lost = lostOn(id).map((audit) => `${audit} (${audits[audit]?.score}${BY_DESIGN[name]?.[audit] ? `: ${BY_DESIGN[name][audit]}` : ""})`);
      console.log(`[lighthouse]   ${id} lost on: ${lost.join(", ")}`);
    }
  }
} finally {
  chrome.kill();
  await server.stop();
  await database.drop();
}
process.exit(missed ? 1 : 0);
