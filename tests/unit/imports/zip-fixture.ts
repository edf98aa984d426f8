import { createWriteStream } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import yazl from "yazl";

/** A zip written to a temporary directory from name → bytes, in that order, for the readers' tests. */
export async function writeZip(entries: [name: string, content: Buffer | string][]): Promise<string> {
  const path = join(await mkdtemp(join(tmpdir(), "import-fixture-")), "export.zip");
  const zip = new yazl.ZipFile();
  for (const [name, content] of entries) zip.addBuffer(Buffer.isBuffer(content) ? content : Buffer.from(content), name);
  zip.end();
  await new Promise<void>((resolve, reject) => zip.outputStream.pipe(createWriteStream(path)).on("close", resolve).on("error", reject));
  return path;
}
