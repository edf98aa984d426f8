import { chmod, readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ensureDemoAccount } from "~/server/demo/seed-demo";
import { apiBaseUrl, db } from "../support/api";
import { tempDirMaker } from "../support/temp-dir";

/**
 * The demo account as the launcher seeds it (scripts/serve.ts): under `npm run dev` with a key kept
 * in DATA_DIR/demo.json for the owner only; under `npm start --demo` without any key. Runs in
 * this order on one database, as a development data dir later started in production would.
 */

const freshDataDir = tempDirMaker("blogmgr-demo-");

const modeOf = async (file: string) => (await stat(file)).mode & 0o777;

describe("the demo account", () => {
  it("in production: the account and its blogs, but no key made, printed or stored", async () => {
    const dataDir = await freshDataDir();
    const demo = await ensureDemoAccount(dataDir, { issueKey: false });
    expect(demo).toEqual({ email: "demo@example.com", password: "demo-password" });
    const { id } = await db().user.findUniqueOrThrow({ where: { email: demo.email } });
    const account = await db().organization.findUniqueOrThrow({ where: { id }, include: { _count: { select: { blogs: true, apiKeys: true } } } });
    expect(account._count).toEqual({ blogs: 5, apiKeys: 0 });
    expect(await readdir(dataDir)).toEqual([]);
  });

  it("in development: a working key kept in demo.json, mode 0600, narrowed again when found wider", async () => {
    const dataDir = await freshDataDir();
    const file = join(dataDir, "demo.json");
    const demo = await ensureDemoAccount(dataDir, { issueKey: true });
    expect(demo.apiKey).toMatch(/^bm_[a-z0-9]{64}$/);
    expect(await modeOf(file)).toBe(0o600);
    const response = await fetch(new URL("/api/v1/blogs", apiBaseUrl()), { headers: { "x-api-key": demo.apiKey! } });
    expect(response.status).toBe(200);

    await chmod(file, 0o644);
    expect(await ensureDemoAccount(dataDir, { issueKey: true })).toEqual(demo);
    expect(await modeOf(file)).toBe(0o600);
  });
});
