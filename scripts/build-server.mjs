// `npm run build`, after `next build`: compiles the launcher (scripts/serve.ts), the production
// server (src/server/http-server.ts) and its image processor (src/server/images/image-worker.ts),
// each into one ES module under .next/production-server,
// so that `npm start` runs them with plain `node`: no TypeScript loader at run time, and the
// server's own modules (the REST handler, the database, the usage batcher) loaded once, from one
// file. Packages stay plain imports from node_modules.
import { build } from "esbuild";

const SERVER_BUILD_DIR = ".next/production-server";

await build({
  entryPoints: { serve: "scripts/serve.ts", "http-server": "src/server/http-server.ts", "image-worker": "src/server/images/image-worker.ts" },
  outdir: SERVER_BUILD_DIR,
  outExtension: { ".js": ".mjs" },
  bundle: true,
  packages: "external",
  platform: "node",
  format: "esm",
  target: "node24",
  logLevel: "warning",
  // The server runs outside React's server condition, where `server-only` would throw: it is server code.
  alias: { "server-only": "./node_modules/server-only/empty.js" },
});
console.log(`Production server compiled to ${SERVER_BUILD_DIR}/serve.mjs, http-server.mjs and image-worker.mjs`);
