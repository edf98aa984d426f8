import { spawn } from "node:child_process";
import { stat, writeFile } from "node:fs/promises";
import { connect } from "node:net";
import { join } from "node:path";
import { PrismaPg } from "@prisma/adapter-pg";
import { describe, expect, it } from "vitest";
import { freePort, PRODUCTION_LAUNCHER, waitUntilServing } from "../../scripts/lib/next-server";
import { createScratchDatabase } from "../../scripts/lib/scratch-database";
import { PrismaClient } from "~/generated/prisma/client";
import { createAccount } from "~/server/accounts/create-account";
import { applyMigrations } from "~/server/db/migrate";
import { DEMO } from "~/server/demo/seed-demo";
import { createApiKey } from "~/server/keys/create-api-key";
import { PERMISSIONS } from "~/shared/permissions";
import * as fixtures from "../images/fixtures";
import { tempDirMaker } from "../support/temp-dir";

/**
 * The launcher as an operator runs it (`npm start` runs scripts/serve.ts as `npm run build` compiled it), for real:
 * what it seeds, prints and stores, and which production settings make it refuse to start.
 */

const freshDataDir = tempDirMaker("blogmgr-launcher-");

/** The test run's environment without the settings each case chooses itself. */
function baseEnv(overrides: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
  for (const name of ["DATABASE_URL", "REDIS_URL", "UPSTASH_REDIS_REST_URL", "UPSTASH_REDIS_REST_TOKEN", "BETTER_AUTH_SECRET", "BETTER_AUTH_URL", "VERCEL", "SEED_DEMO", "NODE_ENV", "SMTP_URL", "EMAIL_FROM"]) {
    delete env[name];
  }
  return { ...env, ...overrides };
}

function launch(script: string, args: string[], env: NodeJS.ProcessEnv) {
  // TypeScript sources through tsx in React's server condition (as package.json runs them, for
  // `server-only`); the compiled launcher with plain Node, as `npm start` runs it.
  const loader = script.endsWith(".ts") ? ["--conditions=react-server", "--import", "tsx"] : [];
  const child = spawn(process.execPath, [...loader, script, ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, exited, output: () => ({ stdout, stderr }) };
}

/** Runs a launcher expected to refuse: its exit code and the lines it wrote to stderr. */
async function refusal(script: string, args: string[], env: NodeJS.ProcessEnv) {
  const run = launch(script, args, env);
  const timer = setTimeout(() => run.child.kill("SIGKILL"), 60_000);
  const code = await run.exited;
  clearTimeout(timer);
  const { stdout, stderr } = run.output();
  return { code, stdout, lines: stderr.trim().split("\n").filter(Boolean) };
}

const UNREACHABLE_DATABASE = "postgresql://postgres:hunter2-not-shown@127.0.0.1:1/none";

describe("npm start", () => {
  it(
    "on a fresh data dir: no demo account, no key printed or stored, secret files 0600, single-machine settings said once",
    async () => {
      const dataDir = await freshDataDir();
      // A secret left readable by others (an older version, a copy) is narrowed on start.
      await writeFile(join(dataDir, "auth-secret"), "a".repeat(64), { mode: 0o644 });
      const port = await freePort();
      const run = launch(PRODUCTION_LAUNCHER, ["start"], baseEnv({ DATA_DIR: dataDir, PORT: String(port) }));
      try {
        const baseUrl = `http://127.0.0.1:${port}`;
        await waitUntilServing(`${baseUrl}/api/v1/openapi.json`, run.child, 170_000);

        const signIn = await fetch(`${baseUrl}/api/auth/sign-in/email`, {
          method: "POST",
          headers: { "content-type": "application/json", origin: baseUrl },
          body: JSON.stringify({ email: "demo@example.com", password: "demo-password" }),
        });
        expect(signIn.status).toBe(401);

        const { stdout, stderr } = run.output();
        const output = stdout + stderr;
        expect(output).not.toContain("bm_");
        await expect(stat(join(dataDir, "demo.json"))).rejects.toThrow(/ENOENT/);
        expect((await stat(join(dataDir, "auth-secret"))).mode & 0o777).toBe(0o600);
        // One line each, from the launcher, not one per route bundle or request.
        expect(output.split("\n").filter((line) => line.includes("BETTER_AUTH_SECRET"))).toHaveLength(1);
        expect(output.split("\n").filter((line) => line.includes("REDIS_URL"))).toHaveLength(1);

        // The API on embedded PostgreSQL, whose connections share one session: concurrent requests
        // on several pool connections, none preparing a statement another already has.
        const embeddedUrl = /at (postgres(?:ql)?:\/\/[^\s"]+)/.exec(output)?.[1];
        expect(embeddedUrl).toBeDefined();
        const db = new PrismaClient({ adapter: new PrismaPg({ connectionString: embeddedUrl! }) });
        try {
          const account = await createAccount(db, { email: "embedded@example.test", password: "password-123" });
          const { key } = await createApiKey(db, { accountId: account.id, name: "embedded", permissions: [...PERMISSIONS] });
          const statuses = await Promise.all(
            Array.from({ length: 8 }, (_, i) =>
              fetch(`${baseUrl}/api/v1/blogs?limit=${i + 1}`, { headers: { "x-api-key": key } }).then((response) => response.status),
            ),
          );
          expect(statuses).toEqual(Array(8).fill(200));
          // Images need nothing more: stored in the embedded database, three uploads of the same
          // bytes at once (each a transaction holding the account's row lock): one image, which the
          // other two answer; its files served from it.
          const png = await fixtures.png();
          const uploads = await Promise.all(
            Array.from({ length: 3 }, () =>
              fetch(`${baseUrl}/api/v1/images`, { method: "POST", headers: { "x-api-key": key, "content-type": "image/png" }, body: new Uint8Array(png) }).then(
                async (response) => ({ status: response.status, url: ((await response.json()) as { data?: { image: { url: string } } }).data?.image.url }),
              ),
            ),
          );
          expect(uploads.map(({ status }) => status).sort()).toEqual([200, 200, 201]);
          expect(new Set(uploads.map(({ url }) => url)).size).toBe(1);
          const file = await fetch(new URL(new URL(uploads[0]!.url!).pathname, baseUrl));
          expect([file.status, file.headers.get("content-type"), (await file.arrayBuffer()).byteLength > 0]).toEqual([200, "image/png", true]);
        } finally {
          await db.$disconnect();
        }
        // SIGTERM: the server drains (docs/deploying.md) while its embedded database still runs; the
        // launcher stops that and exits only once the server has.
        run.child.kill("SIGTERM");
        expect(await run.exited).toBe(0);
        const { stdout: finalOut, stderr: finalErr } = run.output();
        expect(finalOut + finalErr).toContain('"msg":"drained; exiting"');
      } finally {
        run.child.kill("SIGTERM");
        await run.exited;
      }
    },
    240_000,
  );

  it("refuses to serve the demo account `npm run dev` left in its database, unless started with --demo", async () => {
    const scratch = await createScratchDatabase(process.env.DATABASE_URL, "blogmgr_launcher");
    try {
      await applyMigrations(scratch.url);
      const db = new PrismaClient({ adapter: new PrismaPg({ connectionString: scratch.url }) });
      await createAccount(db, { ...DEMO, plan: "pro" });
      await db.$disconnect();
      const { code, lines } = await refusal(PRODUCTION_LAUNCHER, ["start"], baseEnv({ DATABASE_URL: scratch.url, DATA_DIR: await freshDataDir() }));
      expect(code).not.toBe(0);
      expect(lines.at(-1)).toContain(`The demo account ${DEMO.email}`);
      expect(lines.at(-1)).toContain("--demo");
    } finally {
      await scratch.drop();
    }
  });

  it("with an unreachable DATABASE_URL exits with one line naming the database and the cause, without its password", async () => {
    const { code, lines } = await refusal(PRODUCTION_LAUNCHER, ["start"], baseEnv({ DATABASE_URL: UNREACHABLE_DATABASE, DATA_DIR: await freshDataDir() }));
    expect(code).not.toBe(0);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("127.0.0.1:1/none");
    expect(lines[0]).toContain("ECONNREFUSED");
    expect(lines[0]).not.toContain("hunter2");
  });

  it("on Vercel without BETTER_AUTH_SECRET refuses to start, in one line naming it", async () => {
    const { code, lines } = await refusal(
      PRODUCTION_LAUNCHER,
      ["start"],
      baseEnv({ VERCEL: "1", DATABASE_URL: UNREACHABLE_DATABASE, REDIS_URL: "redis://127.0.0.1:6379", DATA_DIR: await freshDataDir() }),
    );
    expect(code).not.toBe(0);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("BETTER_AUTH_SECRET");
  });

  it("on Vercel without a shared rate-limit store refuses to start, in one line naming both ways to give one", async () => {
    const { code, lines } = await refusal(
      PRODUCTION_LAUNCHER,
      ["start"],
      baseEnv({ VERCEL: "1", DATABASE_URL: UNREACHABLE_DATABASE, BETTER_AUTH_SECRET: "s".repeat(40), DATA_DIR: await freshDataDir() }),
    );
    expect(code).not.toBe(0);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("UPSTASH_REDIS_REST_URL");
    expect(lines[0]).toContain("REDIS_URL");
  });

  it("on Vercel without SMTP_URL and EMAIL_FROM refuses to start, in one line naming both", async () => {
    const { code, lines } = await refusal(
      PRODUCTION_LAUNCHER,
      ["start"],
      baseEnv({ VERCEL: "1", DATABASE_URL: UNREACHABLE_DATABASE, BETTER_AUTH_SECRET: "s".repeat(40), REDIS_URL: "redis://127.0.0.1:6379", DATA_DIR: await freshDataDir() }),
    );
    expect(code).not.toBe(0);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("SMTP_URL");
    expect(lines[0]).toContain("EMAIL_FROM");
  });
});

describe("npm run db:migrate", () => {
  it("with an unreachable DATABASE_URL exits with one line naming the database and the cause", async () => {
    const { code, lines } = await refusal("scripts/db-migrate.ts", [], baseEnv({ DATABASE_URL: UNREACHABLE_DATABASE }));
    expect(code).not.toBe(0);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("127.0.0.1:1/none");
    expect(lines[0]).toContain("ECONNREFUSED");
    expect(lines[0]).not.toContain("hunter2");
  });
});

/** Whether something accepts a TCP connection at host:port. */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, host, () => (socket.end(), resolve(true)));
    socket.on("error", () => resolve(false));
  });
}

describe("the listening address (docs/deploying.md)", () => {
  // 127.0.0.2 is this machine too, but a server bound to 127.0.0.1 alone does not answer there:
  // what an address on another interface would see, without needing one.
  it.each([
    ["npm start", PRODUCTION_LAUNCHER, "start"],
    ["npm run dev", "scripts/serve.ts", "dev"],
  ])("%s listens on loopback only by default, and on HOSTNAME when it is set", async (_, script, mode) => {
    const scratch = await createScratchDatabase(process.env.DATABASE_URL, "blogmgr_listen");
    try {
      for (const [hostname, reached, notReached] of [[undefined, "127.0.0.1", "127.0.0.2"], ["127.0.0.2", "127.0.0.2", "127.0.0.1"]] as const) {
        const port = await freePort();
        const env = baseEnv({ DATABASE_URL: scratch.url, DATA_DIR: await freshDataDir(), PORT: String(port), WEBHOOK_WORKER: "0", ...(hostname && { HOSTNAME: hostname }) });
        if (!hostname) delete env.HOSTNAME;
        const run = launch(script, [mode], env);
        try {
          await expect.poll(() => accepts(reached, port), { timeout: 120_000, interval: 250 }).toBe(true);
          expect(await accepts(notReached, port), `${mode} with HOSTNAME=${hostname ?? "(unset)"} at ${notReached}`).toBe(false);
        } finally {
          run.child.kill("SIGTERM");
          await run.exited;
        }
      }
    } finally {
      await scratch.drop();
    }
  }, 300_000);
});
