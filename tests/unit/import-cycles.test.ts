import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { expect, it } from "vitest";

/**
 * No import cycles in src/, type imports included (README.md, Architecture): a module is read
 * before whatever it imports, and none waits on its own importers. Prisma's generated client,
 * which has cycles of its own, is not ours to change.
 */
it("src/ has no import cycle, type imports included", async () => {
  const { stdout } = await promisify(execFile)(
    "node_modules/.bin/dpdm",
    ["--no-warning", "--no-tree", "--no-progress", "--transform=false", "--exit-code", "circular:1", "--exclude", "node_modules|src/generated", "src/**/*.ts", "src/**/*.tsx"],
    { maxBuffer: 16 * 1024 * 1024 },
  ).catch((failure: { stdout: string }) => failure);
  expect(stdout).toContain("no circular dependency was found");
}, 120_000);
