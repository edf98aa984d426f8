import "server-only";
import { ImportFileError, type ImportSource } from "../source";

/** Opens a WordPress export (docs/migrating.md, WordPress). */
export async function openWordPressExport(_path: string): Promise<ImportSource> {
  throw new ImportFileError("WordPress exports cannot be read yet");
}
