import { expect } from "vitest";
import yazl from "yazl";
import { apiBaseUrl, call, createTestKey } from "../support/api";
import type { ImportView } from "~/shared/imports";

/** A zip of these entries (name → text or bytes), in memory: the small exports the tests send. */
export function zipOf(entries: Record<string, string | Buffer>): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, data] of Object.entries(entries)) zip.addBuffer(Buffer.isBuffer(data) ? data : Buffer.from(data), name);
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on("data", (chunk: Buffer) => chunks.push(chunk)).on("end", () => resolve(Buffer.concat(chunks))).on("error", reject);
  });
}

/** POST /imports with the file as the `file` part (and `oldUrl` when given). */
export function postImport(key: string, file: Buffer, { oldUrl, name = "export.zip" }: { oldUrl?: string; name?: string } = {}) {
  const form = new FormData();
  form.set("file", new File([new Uint8Array(file)], name));
  if (oldUrl) form.set("oldUrl", oldUrl);
  return send("/imports", key, form);
}

/** A POST of a form to /api/v1 (the helper `call` sends text bodies). */
async function send(path: string, key: string, body: FormData) {
  const response = await fetch(new URL(`/api/v1${path}`, apiBaseUrl()), { method: "POST", headers: { "x-api-key": key }, body });
  const text = await response.text();
  return { status: response.status, json: (text ? JSON.parse(text) : null) as unknown };
}

/** GET /imports/{id} until it is done or failed. */
export async function untilFinished(key: string, id: string, timeoutMs = 60_000): Promise<ImportView> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { status, json } = await call(`/imports/${id}`, { key });
    expect(status).toBe(200);
    const view = (json as { data: { import: ImportView } }).data.import;
    if (view.status === "done" || view.status === "failed") return view;
    if (Date.now() > deadline) throw new Error(`import ${id} still ${view.status} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Imports `file` and waits for its end. */
export async function importFile(key: string, file: Buffer, options: { oldUrl?: string } = {}): Promise<ImportView> {
  const created = await postImport(key, file, options);
  expect(created.status, JSON.stringify(created.json)).toBe(202);
  return untilFinished(key, (created.json as { data: { import: ImportView } }).data.import.id);
}

export const readOnlyKey = (accountId: string) => createTestKey(accountId, { permissions: ["read:blogs"] });
