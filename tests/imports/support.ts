import { expect } from "vitest";
import { apiBaseUrl, call, createTestKey } from "../support/api";
import type { ImportView } from "~/shared/imports";

/** Where the requests go: the suite's server unless a test's own is named. */
interface Target {
  baseUrl?: string;
}

/** POST /imports with the file as the `file` part (and `oldUrl` when given). */
export function postImport(key: string, file: Buffer, { oldUrl, name = "export.zip", baseUrl }: { oldUrl?: string; name?: string } & Target = {}) {
  const form = new FormData();
  form.set("file", new File([new Uint8Array(file)], name));
  if (oldUrl) form.set("oldUrl", oldUrl);
  return send("/imports", key, form, baseUrl);
}

/** A POST of a form to /api/v1 (the helper `call` sends text bodies). */
async function send(path: string, key: string, body: FormData, baseUrl = apiBaseUrl()) {
  const response = await fetch(new URL(`/api/v1${path}`, baseUrl), { method: "POST", headers: { "x-api-key": key }, body });
  const text = await response.text();
  return { status: response.status, json: (text ? JSON.parse(text) : null) as unknown };
}

/** The import as GET /imports/{id} shows it. */
export async function getImport(key: string, id: string, { baseUrl }: Target = {}): Promise<ImportView> {
  const { status, json } = await call(`/imports/${id}`, { key, baseUrl });
  expect(status).toBe(200);
  return (json as { data: { import: ImportView } }).data.import;
}

/** GET /imports/{id} until it is done or failed. */
export async function untilFinished(key: string, id: string, { timeoutMs = 60_000, baseUrl }: { timeoutMs?: number } & Target = {}): Promise<ImportView> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const view = await getImport(key, id, { baseUrl });
    if (view.status === "done" || view.status === "failed") return view;
    if (Date.now() > deadline) throw new Error(`import ${id} still ${view.status} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** POST /imports and the import it started (202, queued). */
export async function startImport(key: string, file: Buffer, options: { oldUrl?: string; name?: string } & Target = {}): Promise<ImportView> {
  const created = await postImport(key, file, options);
  expect(created.status, JSON.stringify(created.json)).toBe(202);
  return (created.json as { data: { import: ImportView } }).data.import;
}

/** Imports `file` and waits for its end. */
export async function importFile(key: string, file: Buffer, options: { oldUrl?: string; name?: string } = {}): Promise<ImportView> {
  return untilFinished(key, (await startImport(key, file, options)).id);
}

export const readOnlyKey = (accountId: string) => createTestKey(accountId, { permissions: ["read:blogs"] });
