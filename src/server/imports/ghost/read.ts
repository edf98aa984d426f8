import "server-only";
import { ImportFileError, type ImportSource } from "../source";

/** Opens a Ghost export (docs/migrating.md, Ghost). */
export async function openGhostExport(_path: string): Promise<ImportSource> {
  throw new ImportFileError("Ghost exports cannot be read yet");
}
