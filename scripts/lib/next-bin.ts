import { createRequire } from "node:module";

/** Next's CLI script, run with this Node directly (no npx in between, so signals reach it). */
export const NEXT_BIN = createRequire(import.meta.url).resolve("next/dist/bin/next");
