import { spawn } from "node:child_process";
import { readFile, rm, writeFile } from "node:fs/promises";
import { PrismaPg } from "@prisma/adapter-pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startProductionServer, type RunningServer } from "../../scripts/lib/next-server";
import { serverLogFile } from "../support/server-logs";
import { createScratchDatabase, type ScratchDatabase } from "../../scripts/lib/scratch-database";
import { PrismaClient } from "~/generated/prisma/client";
import { createAccount } from "~/server/accounts/create-account";
import { applyMigrations } from "~/server/db/migrate";
import { DEMO } from "~/server/demo/seed-demo";
import { createApiKey } from "~/server/keys/create-api-key";
import { PERMISSIONS } from "~/shared/permissions";
import { cameraJpeg } from "../images/fixtures";
import { wxrDocument } from "../../bench/wxr";

/**
 * The README's commands as a newcomer runs them: every `sh` block with curl or CLI commands, in
 * order, in one bash session stopping at the first failing command, exactly as printed but for the
 * app's address, the key (the demo account's, which `npm run dev` prints) and the webhook
 * receiver's host (example.com does not resolve here). Against a server of their own on a scratch
 * database holding the demo account, so that `demo` is the key's handle and the commands' writes
 * meet no other test's. The photo a reader uploads and the export they import are theirs, beside
 * them: photo.jpg and wordpress.xml.
 */

const README = new URL("../../README.md", import.meta.url);
/** What a reader has in the directory they run the commands from (the project's), and what the commands leave there. */
const BROUGHT = "photo.jpg";
/** The WordPress export a reader imports (by the API, then the CLI: the second finds it already imported). */
const BROUGHT_EXPORT = "wordpress.xml";
const LEFT = ["photo.jpg", "wordpress.xml", "blogs.json", "subscribers.csv", "subscribers-export.csv", "ann-export.zip"];

let scratch: ScratchDatabase;
let server: RunningServer;
let key: string;

beforeAll(async () => {
  scratch = await createScratchDatabase(process.env.DATABASE_URL, "blogmgr_readme");
  await applyMigrations(scratch.url);
  const db = new PrismaClient({ adapter: new PrismaPg({ connectionString: scratch.url }) });
  try {
    const demo = await createAccount(db, { ...DEMO, plan: "pro" });
    key = (await createApiKey(db, { accountId: demo.id, name: "Demo key", permissions: [...PERMISSIONS] })).key;
  } finally {
    await db.$disconnect();
  }
  server = await startProductionServer({ ...process.env, DATABASE_URL: scratch.url }, { logFile: serverLogFile() });
  await writeFile(BROUGHT, await cameraJpeg());
  await writeFile(BROUGHT_EXPORT, wxrDocument([{ id: 1, title: "From WordPress", slug: "from-wordpress", content: "Moved here." }]));
}, 120_000);

afterAll(async () => {
  await Promise.all(LEFT.map((file) => rm(file, { force: true })));
  await server?.stop();
  await scratch?.drop();
});

/** The README's shell blocks that run commands against the app (not `npm ci`, `npm test`...). */
async function readmeCommands(): Promise<string> {
  const blocks = [...(await readFile(README, "utf8")).matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]!);
  return blocks.filter((block) => block.includes("curl ") || block.includes("npm run --silent cli --")).join("\n");
}

function runBash(script: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn("bash", ["-e", "-o", "pipefail", "-c", script], { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("the README's commands", () => {
  it("work as printed: every API call a success, the public page and feed served, every CLI command done", async () => {
    const printed = await readmeCommands();
    const keyLine = /^KEY=bm_\.\.\.(?=\s)/m;
    expect(printed).toMatch(keyLine);
    const script = printed
      .replace(keyLine, `KEY=${key}`)
      .replaceAll("http://localhost:3000", server.baseUrl)
      .replaceAll("https://example.com/hook", "https://127.0.0.1/hook");
    // The CLI works on DATABASE_URL; webhook URLs may name this machine (the test's receiver host).
    const { code, stdout, stderr } = await runBash(script, { ...process.env, DATABASE_URL: scratch.url, WEBHOOK_ALLOW_PRIVATE_URLS: "1" });
    expect(code, stderr).toBe(0);

    // One envelope per API call whose answer is printed (those inside $(...) are read by the next command).
    const printedCalls = printed.split("\n").flatMap((line) => line.replace(/\$\([^)]*\)/g, "").match(/curl -s [^;]*\$API/g) ?? []);
    const envelopes = [...stdout.matchAll(/\{"success":(true|false)/g)].map((match) => match[1]);
    expect(envelopes).toEqual(printedCalls.map(() => "true"));
    // curl prints no newline after a body: the status line follows the previous answer on its line.
    expect([...stdout.matchAll(/HTTP\/1\.1 (\d+)/g)].map((match) => match[1])).toEqual(["200"]);
    expect(stdout).toContain("<title><![CDATA[Hello world]]></title>");
    expect(stdout).toContain('"imported": 1');
    expect(stdout).toMatch(/"added": 1,\s+"addedUnsubscribed": 0,\s+"alreadyThere": 1/);
  }, 240_000);
});
