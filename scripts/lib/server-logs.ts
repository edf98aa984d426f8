/**
 * Where `npm test`'s servers write their output (scripts/test.ts): one file per server under
 * test-results/, never the console, so the console holds the test report. After the run every log
 * is scanned for secrets.
 */
import { readdir, rm } from "node:fs/promises";
import { join } from "node:path";

const TEST_RESULTS = "test-results";
/** The server the whole suite runs against (scripts/test.ts). */
export const MAIN_SERVER_LOG = join(TEST_RESULTS, "server.log");
/** Servers a test file starts of its own: `<file>-<n>.log` (tests/support/server-logs.ts). */
export const TEST_SERVER_LOGS = join(TEST_RESULTS, "servers");
/** The cluster rig's instances, balancer and pooler: `<test file>/app1.log`... (scripts/lib/cluster.ts). */
export const CLUSTER_LOGS = join(TEST_RESULTS, "cluster");

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
