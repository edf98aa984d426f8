/**
 * Summarises V8 CPU profiles written by `BENCH_CPU_PROFILE_DIR=dir npm run bench` (bench/README.md, "Reproduce"):
 * where each server's busy time went, by package or module (a native call counts for
 * the code that made it) and by function.
 *
 * Run: npx tsx bench/profile-summary.ts dir/app/*.cpuprofile dir/baseline/*.cpuprofile
 * It prints each second's busy milliseconds first; FROM=s TO=s (seconds from the profile's start)
 * keep only a window, such as the seconds under load without the server's start-up.
 */
import { readFileSync } from "node:fs";
import { basename } from "node:path";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const IDLE = new Set(["(idle)", "(root)"]);

/** Where a frame's code lives: a package, a Node module, or the app's own bundle. */
function placeOf(url: string): string | null {
  if (!url) return null;
  const packageMatch = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (packageMatch) return packageMatch[1]!;
  if (url.startsWith("node:")) return url.replace(/^node:internal\//, "node:").replace(/\/.*$/, "");
  if (url.includes("/node_modules/@blogmgr/server/dist/")) return `app: ${basename(url)}`;
  if (url.includes("/.next/")) return "next build output";
  return basename(url);
}

function summarise(file: string, top: number): void {
  const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const selfMs = new Map<number, number>();
  const busyBySecond: number[] = [];
  let elapsedMs = 0;
  // timeDeltas[i] is the time before sample i: it is charged to the sample that follows it. Idle
  // samples count for nothing.
  profile.samples.forEach((id, i) => {
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    elapsedMs += ms;
    if (IDLE.has(byId.get(id)!.callFrame.functionName)) return;
    const second = Math.floor(elapsedMs / 1000);
    busyBySecond[second] = (busyBySecond[second] ?? 0) + ms;
    if (second >= seconds.from && second < seconds.to) selfMs.set(id, (selfMs.get(id) ?? 0) + ms);
  });

  const placeOfNode = (id: number): string => {
    for (let current: number | undefined = id; current !== undefined; current = parent.get(current)) {
      const place = placeOf(byId.get(current)!.callFrame.url);
      if (place) return place;
    }
    return byId.get(id)!.callFrame.functionName;
  };
  const byPlace = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let busy = 0;
  for (const [id, ms] of selfMs) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    busy += ms;
    const place = placeOfNode(id);
    byPlace.set(place, (byPlace.get(place) ?? 0) + ms);
    const name = `${functionName || "(anonymous)"} ${url ? `${placeOf(url)}:${lineNumber + 1}` : `[native, in ${place}]`}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + ms);
  }
  const rows = (map: Map<string, number>) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, ms]) => `  ${((100 * ms) / busy).toFixed(1).padStart(5)}%  ${ms.toFixed(0).padStart(6)} ms  ${name}`)
      .join("\n");
  const timeline = Array.from(busyBySecond, (ms) => Math.round(ms ?? 0)).join(" ");
  console.log(`${basename(file)}\nbusy ms each second: ${timeline}\n${(busy / 1000).toFixed(1)} s busy in seconds ${seconds.from} to ${Math.min(seconds.to, busyBySecond.length)}\nby package or module:\n${rows(byPlace)}\nby function (self):\n${rows(byFunction)}\n`);
}

const top = Number(process.env.TOP ?? 25);
const seconds = { from: Number(process.env.FROM ?? 0), to: Number(process.env.TO ?? Infinity) };
for (const file of process.argv.slice(2)) summarise(file, top);
