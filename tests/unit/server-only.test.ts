import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

/** Every module under src/server, listed from disk so a new file is checked too. */
function serverModules(dir = "src/server"): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return serverModules(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

// A browser bundle that reaches a server module fails Next's build instead of shipping it (README, Architecture).
describe("server modules", () => {
  it("each import server-only", () => {
    const missing = serverModules().filter((path) => !/^import "server-only";$/m.test(readFileSync(path, "utf8")));
    expect(missing).toEqual([]);
  });
});
