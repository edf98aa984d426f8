// `npm run build`, before `next build`: the server core, compiled into node_modules (./lib/server-core.ts).
import { buildServerCore, SERVER_CORE_DIR } from "./lib/server-core";

await buildServerCore();
console.log(`Server core compiled to ${SERVER_CORE_DIR}`);
