import { join, relative, sep } from "node:path";
import { expect } from "vitest";
import { CLUSTER_LOGS, TEST_SERVER_LOGS } from "../../scripts/lib/server-logs";

/**
 * The logs of the servers a test file starts of its own (scripts/lib/server-logs.ts): one file per
 * server, never the console. Module state: each test file has its own (Vitest isolates files).
 */
let started = 0;

/** The test file's path under tests/ without `.test.ts`, flattened: `ops-access-log`. */
function testFileName(): string {
  return relative("tests", expect.getState().testPath!).replace(/\.test\.ts$/, "").split(sep).join("-");
}

/** The log file for the next server this test file starts: test-results/servers/<file>-<n>.log. */
export function serverLogFile(): string {
  started += 1;
  return join(TEST_SERVER_LOGS, `${testFileName()}-${started}.log`);
}

/** The directory for the logs of the cluster rig this test file starts: test-results/cluster/<name>/. */
export function clusterLogDir(name: string): string {
  return join(CLUSTER_LOGS, name);
}
