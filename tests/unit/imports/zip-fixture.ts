import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { zipOf, type ZipEntries } from "../../imports/sources";

/** A zip written to a temporary directory from name → bytes, in that order, for the readers' tests. */
export async function writeZip(entries: ZipEntries | Record<string, string | Buffer>): Promise<string> {
  const path = join(await mkdtemp(join(tmpdir(), "import-fixture-")), "export.zip");
  await writeFile(path, await zipOf(entries));
  return path;
}
