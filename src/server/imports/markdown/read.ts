import "server-only";
import { ImportFileError, type ImportSource } from "../source";

/** Opens a Markdown export (docs/migrating.md, Markdown). */
export async function openMarkdownExport(_path: string): Promise<ImportSource> {
  throw new ImportFileError("Markdown exports cannot be read yet");
}
