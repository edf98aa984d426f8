import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { CLIENT_DIR } from "../../scripts/lib/typescript-client";
import { apiBaseUrl, call, createTestAccount, type TestAccount } from "../support/api";

/** The generated TypeScript client (docs/typescript-client.md) compiles under strict rules and works against the server. */

const run = promisify(execFile);
const EXAMPLE = path.join(CLIENT_DIR, "example.ts");

let account: TestAccount;
beforeAll(async () => {
  account = await createTestAccount("free");
});

describe("the TypeScript client", () => {
  it("describes the document the server serves", async () => {
    const served = (await call("/openapi.json")).body as Record<string, unknown>;
    const committed = JSON.parse(readFileSync(path.join(CLIENT_DIR, "openapi.json"), "utf8"));
    expect({ ...served, servers: undefined }).toEqual({ ...committed, servers: undefined });
  });

  it("type-checks its example under strict rules, as a Node ES module", async () => {
    const compiled = await run(
      process.execPath,
      ["node_modules/typescript/bin/tsc", "--noEmit", "--strict", "--target", "es2022", "--module", "nodenext", "--skipLibCheck", "--types", "node", EXAMPLE],
      { encoding: "utf8" },
    ).catch((error: { stdout: string }) => ({ stdout: error.stdout }));
    expect(compiled.stdout).toBe("");
  });

  it("lists, creates with an Idempotency-Key, reads conditionally (304), updates with If-Match, deletes, uploads an image", async () => {
    const { stdout } = await run(process.execPath, ["--import", "tsx", EXAMPLE], {
      encoding: "utf8",
      env: { ...process.env, API_BASE_URL: apiBaseUrl(), API_KEY: account.key },
    });
    const lines = stdout.trim().split("\n");
    expect(lines[0]).toBe("listed 0 of 0 blogs");
    expect(lines[1]).toMatch(/^created \S+ \(201\); the retry replayed: true, same blog: true$/);
    expect(lines.slice(2)).toEqual([
      "conditional read: 304",
      "updated (200): Changed only if nobody else did; with the old ETag: 412 PRECONDITION_FAILED",
      expect.stringMatching(/^deleted \S+: true$/),
      "uploaded 1x1 image/png (201), deleted",
    ]);
    const id = lines[1]!.split(" ")[1];
    expect((await call(`/blogs/${id}`, { key: account.key })).status).toBe(404);
  });
});
