import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The server core is loaded once per process (README.md, Architecture): Next's build bundles none
 * of src/server or src/env.ts into its routes, pages and proxy, which import the compiled package
 * `@blogmgr/server` from node_modules instead (scripts/lib/server-core.ts). A core module bundled
 * into a route would be a second instance beside the production server's: its own pool, cache and
 * limiters. Reads the build the suite runs on (`npm test` builds first).
 */

async function serverChunks(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile() && entry.name.endsWith(".js")).map((entry) => join(entry.parentPath, entry.name));
}

describe("one module graph per process", () => {
  it("Next's server output bundles no module of the core, and imports the core package", async () => {
    const bundledCore: string[] = [];
    let importsCore = 0;
    for (const file of await serverChunks(".next/server")) {
      const text = await readFile(file, "utf8");
      // Turbopack names each module it bundles by its path under the project.
      for (const match of text.matchAll(/\[project\]\/src\/(?:server\/[\w./[\]-]+|env\.ts)/g)) bundledCore.push(`${file}: ${match[0]}`);
      if (text.includes('"@blogmgr/server')) importsCore++;
    }
    expect(bundledCore).toEqual([]);
    expect(importsCore).toBeGreaterThan(0);
  });
});
