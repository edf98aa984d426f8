import "server-only";
import type { ImportFormat } from "~/shared/imports";
import { openGhostExport } from "./ghost/read";
import { openMarkdownExport } from "./markdown/read";
import type { ImportSource } from "./source";
import { openSubstackExport } from "./substack/read";
import { openWordPressExport } from "./wordpress/read";

/** Each format's reader: given the uploaded file's path on disk, the export as items (src/server/imports/source.ts). */
export const READERS: Record<ImportFormat, (path: string) => Promise<ImportSource>> = {
  wordpress: openWordPressExport,
  ghost: openGhostExport,
  substack: openSubstackExport,
  markdown: openMarkdownExport,
};
