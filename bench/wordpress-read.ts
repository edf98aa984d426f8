/**
 * The WordPress reader alone on a large export (docs/migrating.md, Bounded): items per second
 * through both passes and the process's peak RSS, for a file bench/generate-wxr.ts wrote.
 * `npx tsx --conditions=react-server bench/wordpress-read.ts <path>`.
 */
import { stat } from "node:fs/promises";
import { performance } from "node:perf_hooks";
import { openWordPressExport } from "~/server/imports/wordpress/read";

const path = process.argv[2];
if (!path) {
  console.error("usage: npx tsx --conditions=react-server bench/wordpress-read.ts <path>");
  process.exit(2);
}
const megabytes = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
const startRss = process.memoryUsage().rss;
const start = performance.now();
const source = await openWordPressExport(path);
const firstPass = performance.now() - start;
const counts = new Map<string, number>();
for await (const item of source.items()) {
  const kind = item.kind === "skipped" ? item.what : item.kind;
  counts.set(kind, (counts.get(kind) ?? 0) + 1);
}
await source.close();
const seconds = (performance.now() - start) / 1000;
const posts = counts.get("post") ?? 0;
console.log(`${path}: ${megabytes((await stat(path)).size)} MB, ${source.total} items (${[...counts].map(([kind, count]) => `${kind} ${count}`).join(", ")})`);
console.log(`first pass ${(firstPass / 1000).toFixed(1)} s; both passes ${seconds.toFixed(1)} s: ${(posts / seconds).toFixed(0)} posts/s, ${((await stat(path)).size / 1024 / 1024 / seconds).toFixed(1)} MB/s`);
console.log(`RSS at start ${megabytes(startRss)} MB, peak ${megabytes(process.resourceUsage().maxRSS * 1024)} MB`);
