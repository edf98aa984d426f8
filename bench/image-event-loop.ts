/**
 * (g3): whether processing an upload blocks the event loop. The 3 MB photo is processed three
 * times, as an upload is (src/server/images/process-image.ts), while a 1 ms timer measures how late
 * the loop runs (perf_hooks' monitorEventLoopDelay), against the same time idle. Prints one JSON line.
 */
import { monitorEventLoopDelay } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { processImage } from "~/server/images/process-image";
import { photoJpeg } from "./photo";

const photo = await photoJpeg(4000, 3000, 95);

async function loopDelay(work: () => Promise<unknown>) {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  const started = performance.now();
  await work();
  const seconds = (performance.now() - started) / 1000;
  histogram.disable();
  const ms = (ns: number) => Number((ns / 1e6).toFixed(2));
  return { seconds: Number(seconds.toFixed(2)), p50: ms(histogram.percentile(50)), p99: ms(histogram.percentile(99)), max: ms(histogram.max) };
}

const processing = await loopDelay(async () => {
  for (let i = 0; i < 3; i++) await processImage(photo, "upload");
});
const idle = await loopDelay(() => sleep(processing.seconds * 1000));
console.log(JSON.stringify({ processing, idle }));
