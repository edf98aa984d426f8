import "server-only";
import { ImportFileError, type ImportSource } from "../source";

/** Opens a Substack export (docs/migrating.md, Substack). */
export async function openSubstackExport(_path: string): Promise<ImportSource> {
  throw new ImportFileError("Substack exports cannot be read yet");
}
