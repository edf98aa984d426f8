import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { expect, it } from "vitest";
import { openWordPressExport } from "~/server/imports/wordpress/read";
import { writeSampleWxr } from "../../../bench/wxr";
import { tempDirMaker } from "../../support/temp-dir";

/**
 * A large WordPress export is read in bounded memory (docs/migrating.md, Bounded): 2,000 posts of
 * about 5 KB (bench/wxr.ts, 11.5 MB) all come out, and the heap, measured after collections,
 * grows by far less than the file, measured after forced collections, so that garbage is not
 * counted. Its throughput is measured by bench/wordpress-read.ts, not here.
 */
const makeTempDir = tempDirMaker("imports-wordpress-large-");

it("reads a generated export of 2,000 posts with the heap bounded", async () => {
  const path = join(await makeTempDir(), "large.xml");
  await writeSampleWxr(path, 2_000);
  setFlagsFromString("--expose-gc");
  const collect = runInNewContext("gc") as () => void;
  collect();
  const heapBefore = process.memoryUsage().heapUsed;
  let peakGrowth = 0;
  const source = await openWordPressExport(path);
  expect(source.total).toBe(2_000 + 200 + 400);
  let posts = 0;
  let withCover = 0;
  for await (const item of source.items()) {
    if (item.kind !== "post") continue;
    posts += 1;
    if (item.post.coverImage) withCover += 1;
    if (posts % 250 === 0) {
      collect();
      peakGrowth = Math.max(peakGrowth, process.memoryUsage().heapUsed - heapBefore);
    }
  }
  await source.close();
  expect(posts).toBe(2_000);
  expect(withCover).toBe(2_000);
  // About 3 MB measured; keeping each attachment's 64 KB read chunk alive (read.ts, `copied`) made it 15 MB.
  expect(peakGrowth).toBeLessThan(10 * 1024 * 1024);
}, 120_000);
