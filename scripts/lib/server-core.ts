// The server core (src/server, src/shared, src/env.ts) compiled once, as the package
// `@blogmgr/server` in node_modules. Next lists it in serverExternalPackages (next.config.mjs): its
// routes, pages and proxy import it at run time rather than bundling a copy into each route bundle,
// so in one process every entry (the production server, Next's App and Pages Router routes, a
// Vercel function) shares one instance of each module: one pool, one cache, one set of limiters,
// and error classes `instanceof` recognises everywhere (README.md, Architecture).
//
// In node_modules itself, as Prisma once generated its client there: Turbopack bundles a workspace
// package even when it is listed as external (it follows npm's symlink out of node_modules).
//
// Entries: the core's face for Next (src/server/index.ts), the production server and its image
// processor, and the launcher (scripts/serve.ts); the modules they share are chunks, loaded once.
// Run by plain `node`: no TypeScript loader at run time. Packages stay imports from node_modules.
import { build, context, type BuildContext, type BuildOptions, type Plugin } from "esbuild";
import { mkdir, rm, writeFile } from "node:fs/promises";

export const SERVER_CORE_DIR = "node_modules/@blogmgr/server";

const options: BuildOptions = {
  entryPoints: {
    index: "src/server/index.ts",
    serve: "scripts/serve.ts",
    "http-server": "src/server/http/server.ts",
    "image-worker": "src/server/images/image-worker.ts",
  },
  outdir: `${SERVER_CORE_DIR}/dist`,
  outExtension: { ".js": ".mjs" },
  bundle: true,
  splitting: true,
  chunkNames: "chunks/[name]-[hash]",
  packages: "external",
  platform: "node",
  format: "esm",
  target: "node24",
  logLevel: "warning",
  // Node loads the core outside React's server condition, where `server-only` would throw: it is server code.
  alias: { "server-only": "./node_modules/server-only/empty.js" },
};

async function writeManifest(): Promise<void> {
  await mkdir(SERVER_CORE_DIR, { recursive: true });
  // Its types are its sources' (src/types/blogmgr-server.d.ts).
  const manifest = { name: "@blogmgr/server", version: "0.0.0", private: true, type: "module", exports: { ".": "./dist/index.mjs" } };
  await writeFile(`${SERVER_CORE_DIR}/package.json`, `${JSON.stringify(manifest, null, 2)}\n`);
}

/** `npm run build`, before `next build`. */
export async function buildServerCore(): Promise<void> {
  // No chunk of an earlier build is left behind.
  await rm(SERVER_CORE_DIR, { recursive: true, force: true });
  await writeManifest();
  await build(options);
}

/**
 * `npm run dev`: built now, then again on every change of its sources, after which `onRebuilt`
 * runs (the launcher restarts `next dev`: Node keeps a module it loaded for the process's life).
 * Settles once the first build is written. Files are overwritten in place, never removed first: a
 * production server of the same tree may be running from them.
 */
export async function watchServerCore(onRebuilt: () => Promise<void>): Promise<BuildContext> {
  await writeManifest();
  let builds = 0;
  let firstBuilt = () => {};
  const built = new Promise<void>((resolve) => (firstBuilt = resolve));
  const announce: Plugin = {
    name: "announce",
    setup: (esbuild) =>
      esbuild.onEnd((result) => {
        if (builds++ === 0) firstBuilt();
        else if (result.errors.length === 0) void onRebuilt();
      }),
  };
  const watching = await context({ ...options, plugins: [announce] });
  await watching.watch();
  await built;
  return watching;
}
