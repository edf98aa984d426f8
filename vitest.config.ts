import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";

/**
 * Three projects. `unit` (tests/unit, `npm run test:unit`): pure modules, needing no build, server,
 * database or Redis; they leave no state behind, so they share one module graph (no isolation) and
 * run in seconds. `integration`: everything else, against the services `npm test` prepares, but
 * `cluster` (tests/cluster): the multi-instance rig's tests, one file at a time, each starting its
 * own instances (scripts/lib/cluster.ts); `npm test` runs them last, on a machine the others left.
 * In those two, a failed file prints the end of the logs of the servers it started
 * (tests/support/server-logs.ts).
 */
const SERVER_LOG_TAILS = ["tests/support/setup-server-logs.ts"];

export default defineConfig({
  resolve: {
    alias: {
      "~": fileURLToPath(new URL("./src", import.meta.url)),
      // Tests run server modules outside React's server condition, where `server-only` would throw.
      "server-only": fileURLToPath(new URL("./node_modules/server-only/empty.js", import.meta.url)),
    },
  },
  test: {
    testTimeout: 30000,
    // The default reporter names every test slower than this: tests over HTTP against real servers
    // commonly take a second, so only the really slow ones are named (failures always are, in full).
    slowTestThreshold: 10_000,
    projects: [
      { extends: true, test: { name: "unit", include: ["tests/unit/**/*.test.ts"], isolate: false } },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/**/*.test.ts", "src/**/*.test.ts"],
          exclude: [...configDefaults.exclude, "tests/unit/**", "tests/cluster/**"],
          setupFiles: SERVER_LOG_TAILS,
        },
      },
      {
        extends: true,
        test: {
          name: "cluster",
          include: ["tests/cluster/**/*.test.ts"],
          setupFiles: SERVER_LOG_TAILS,
          fileParallelism: false,
          testTimeout: 180_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
