/**
 * Where `npm test`'s servers write their output (scripts/test.ts): one file per server under
 * test-results/, never the console, so the console holds the test report. A failure shows the
 * tail of the log of the server concerned; after the run every log is scanned for secrets.
 */
import { readdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";

const TEST_RESULTS = "test-results";
/** The server the whole suite runs against (scripts/test.ts). */
export const MAIN_SERVER_LOG = join(TEST_RESULTS, "server.log");
/** Servers a test file starts of its own: `<file>-<n>.log` (tests/support/server-logs.ts). */
export const TEST_SERVER_LOGS = join(TEST_RESULTS, "servers");
/** The cluster rig's instances, balancer and pooler: `<test file>/app1.log`... (scripts/lib/cluster.ts). */
export const CLUSTER_LOGS = join(TEST_RESULTS, "cluster");

const TAIL_LINES = 40;

/** Removes the logs of an earlier run: every log found after this run is this run's. */
export async function removeServerLogs(): Promise<void> {
  await Promise.all([MAIN_SERVER_LOG, TEST_SERVER_LOGS, CLUSTER_LOGS].map((path) => rm(path, { recursive: true, force: true })));
}

/** Every log under test-results/, or under `dir`, in path order. */
export async function serverLogFiles(dir = TEST_RESULTS): Promise<string[]> {
  const files = await readdir(dir, { recursive: true }).catch(() => [] as string[]);
  return files
    .filter((file) => file.endsWith(".log"))
    .map((file) => join(dir, file))
    .sort();
}

/** Prints the last lines of `file` to stderr; nothing when it does not exist (its server never started). */
export async function printLogTail(file: string): Promise<void> {
  const text = await readFile(file, "utf8").catch(() => undefined);
  if (text === undefined) return;
  const lines = text.split("\n").filter(Boolean);
  const shown = lines.slice(-TAIL_LINES);
  console.error(`[test] ${file}: ${shown.length < lines.length ? `last ${shown.length} of ${lines.length} lines` : `all ${lines.length} lines`}\n${shown.join("\n")}`);
}
