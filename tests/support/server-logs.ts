import { join, relative, sep } from "node:path";
import { afterAll, expect, type RunnerTask } from "vitest";
import { CLUSTER_LOGS, printLogTail, serverLogFiles, TEST_SERVER_LOGS } from "../../scripts/lib/server-logs";

/**
 * The logs of the servers a test file starts of its own (scripts/lib/server-logs.ts): one file per
 * server, never the console. Module state: each test file has its own (Vitest isolates files).
 */
const files: string[] = [];
/** Directories of logs: the cluster rig's, one file per process. */
const dirs: string[] = [];

/** The test file's path under tests/ without `.test.ts`, flattened: `ops-access-log`. */
function testFileName(): string {
  return relative("tests", expect.getState().testPath!).replace(/\.test\.ts$/, "").split(sep).join("-");
}

/** The log file for the next server this test file starts: test-results/servers/<file>-<n>.log. */
export function serverLogFile(): string {
  const file = join(TEST_SERVER_LOGS, `${testFileName()}-${files.length + 1}.log`);
  files.push(file);
  return file;
}

/** The directory for the logs of the cluster rig this test file starts: test-results/cluster/<name>/. */
export function clusterLogDir(name: string): string {
  const dir = join(CLUSTER_LOGS, name);
  dirs.push(dir);
  return dir;
}

const failed = (task: RunnerTask): boolean => task.result?.state === "fail" || ("tasks" in task && task.tasks.some(failed));

/**
 * Called once per test file by the setup file (vitest.config.ts): when one of its tests or hooks
 * failed, prints the end of each log of the servers it started. Registered before the file's own
 * hooks, so it runs after them: after the servers have stopped.
 */
export function printServerLogsOnFailure(): void {
  // Vitest hands hooks their fixtures first, as an object pattern it requires; the file second.
  afterAll(async ({}, file) => {
    if (!failed(file)) return;
    const inDirs = await Promise.all(dirs.map((dir) => serverLogFiles(dir)));
    for (const log of [...files, ...inDirs.flat()]) await printLogTail(log);
  });
}
