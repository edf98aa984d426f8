/**
 * Writes a WordPress export of N posts (default 10,000; about 5 KB each) for trying the WordPress
 * import at scale (bench/wxr.ts): `npx tsx bench/generate-wxr.ts <path> [posts]`.
 */
import { stat } from "node:fs/promises";
import { writeSampleWxr } from "./wxr";

const [path, posts = "10000"] = process.argv.slice(2);
if (!path || !/^\d+$/.test(posts)) {
  console.error("usage: npx tsx bench/generate-wxr.ts <path> [posts]");
  process.exit(2);
}
await writeSampleWxr(path, Number(posts));
console.log(`${path}: ${posts} posts, ${((await stat(path)).size / 1024 / 1024).toFixed(1)} MB`);
