import yazl from "yazl";

export type ZipEntries = [name: string, content: Buffer | string][];

/** A zip of these entries (name → text or bytes, in that order), in memory: the exports the tests and browser specs send. */
export function zipOf(entries: ZipEntries | Record<string, string | Buffer>): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, data] of Array.isArray(entries) ? entries : Object.entries(entries)) zip.addBuffer(Buffer.isBuffer(data) ? data : Buffer.from(data), name);
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on("data", (chunk: Buffer) => chunks.push(chunk)).on("end", () => resolve(Buffer.concat(chunks))).on("error", reject);
  });
}
