import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { CLIENT_DIR, typescriptClientFiles } from "./lib/typescript-client";

/** `npm run client:generate`: writes the TypeScript client's generated files (docs/typescript-client.md). */
await mkdir(CLIENT_DIR, { recursive: true });
for (const [name, text] of Object.entries(await typescriptClientFiles())) {
  await writeFile(path.join(CLIENT_DIR, name), text);
  console.log(`wrote ${path.join(CLIENT_DIR, name)}`);
}
