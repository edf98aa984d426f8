/**
 * `npm run dev` / `npm start`: runs the app (`next dev`, or the production server of
 * src/server/http/server.ts) on DATABASE_URL, or, when it is unset, on embedded PostgreSQL
 * (PGlite, data under DATA_DIR). Pending migrations are applied first either way.
 *
 * The demo account (published password) is seeded only by `npm run dev` on the embedded database,
 * or when asked for (`--demo`, SEED_DEMO=1); in production without a key (docs/security.md).
 */
import { spawn } from "node:child_process";
import type { JobWorker } from "../src/server/jobs/worker";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { startEmbeddedPostgres, type EmbeddedPostgres } from "../src/server/db/embedded";
import { applyMigrations } from "../src/server/db/migrate";
import type { DemoAccount } from "../src/server/demo/seed-demo";
import { listenHostname } from "../src/server/http/listen-address";
import { log } from "../src/server/runtime/log";
import { missingDeploymentSettings } from "../src/server/runtime/production-settings";
import { readSecretFile, writeSecretFile } from "../src/server/runtime/secret-file";
import { NEXT_BIN } from "./lib/next-bin";
import { PRODUCTION_SERVER_ARGS, waitUntilServing } from "./lib/next-server";

const mode = process.argv[2] === "start" ? "start" : "dev";
const port = process.env.PORT ?? "3000";
const hostname = listenHostname();
const dataDir = process.env.DATA_DIR ?? ".data";
const seedDemo =
  process.argv.includes("--demo") || process.env.SEED_DEMO === "1" || (mode === "dev" && !process.env.DATABASE_URL && process.env.SEED_DEMO !== "0");

let embedded: EmbeddedPostgres | undefined;
let webhookWorker: JobWorker | undefined;

/** Ends the launcher with one line saying why: no stack trace for a setting or an unreachable database. */
async function refuse(reason: string): Promise<never> {
  log.fatal(reason);
  await embedded?.stop();
  process.exit(1);
}

const missing = missingDeploymentSettings(process.env);
if (missing) await refuse(missing);

let databaseUrl = process.env.DATABASE_URL;
let demo: DemoAccount | undefined;
try {
  if (!databaseUrl) {
    embedded = await startEmbeddedPostgres({ dataDir: join(dataDir, "pglite") });
    databaseUrl = embedded.url;
    log.info(`Embedded PostgreSQL (PGlite) serving ${join(dataDir, "pglite")} at ${databaseUrl}`);
  }
  process.env.DATABASE_URL = databaseUrl;

  // Migrations take a session lock: not through a pooler in transaction mode (DIRECT_URL).
  const { applied } = await applyMigrations(process.env.DIRECT_URL || databaseUrl);
  log.info(applied.length ? `Applied migrations: ${applied.join(", ")}` : "Database schema is up to date");
  if (mode === "start") await announceSingleMachineSettings();

  // Imported after DATABASE_URL is set: the app's modules read the environment when loaded.
  const { DEMO, demoAccountExists, ensureDemoAccount } = await import("../src/server/demo/seed-demo");
  if (seedDemo) {
    demo = await ensureDemoAccount(dataDir, { issueKey: mode === "dev" });
  } else if (mode === "start" && (await demoAccountExists())) {
    await refuse(
      `The demo account ${DEMO.email}, whose password is published, is in this database (left by \`npm run dev\`): ` +
        "start with --demo (or SEED_DEMO=1) to serve it knowingly, or use another DATA_DIR or DATABASE_URL",
    );
  }
  // The production server runs its own job worker; `next dev` has no process of its own for one.
  if (mode === "dev" && process.env.WEBHOOK_WORKER !== "0") {
    webhookWorker = await (await import("../src/server/jobs/worker")).startJobWorker(databaseUrl);
  }
  // The launcher's own connection is not needed while the server runs.
  await (await import("../src/server/db")).getDb().$disconnect();
} catch (error) {
  await refuse(error instanceof Error ? error.message : String(error));
}

// Production: the production server (src/server/http/server.ts as `npm run build` compiled it, Next
// behind it); development: `next dev`, on the server core compiled now and on every change
// (scripts/lib/server-core.ts), restarted after each rebuild.
const serverArgs = mode === "start" ? PRODUCTION_SERVER_ARGS : [NEXT_BIN, "dev", "--hostname", hostname];
const appEnv: NodeJS.ProcessEnv = {
  ...process.env,
  PORT: port,
  HOSTNAME: hostname,
  ...(mode === "start" && { NODE_ENV: "production" as const }),
  NEXT_TELEMETRY_DISABLED: "1",
  // PGlite has a single session: a small pool keeps requests from queueing on dead sockets, the
  // connections cannot each prepare the same named statement, nor one of them listen for notices.
  ...(embedded && { DATABASE_POOL_SIZE: process.env.DATABASE_POOL_SIZE ?? "4", DATABASE_PREPARED_STATEMENTS: "0", PUBLIC_CACHE_LISTEN: "0" }),
};
let restarting = false;

function startApp() {
  const child = spawn(process.execPath, serverArgs, { stdio: "inherit", env: appEnv });
  const exited = new Promise<number>((resolve) => child.once("exit", (code) => resolve(code ?? 0)));
  // An exit the launcher did not ask for ends it too.
  void exited.then(() => {
    if (!restarting) void shutdown();
  });
  return { child, exited };
}

if (mode === "dev") {
  const { watchServerCore } = await import("./lib/server-core");
  await watchServerCore(async () => {
    log.info("Server core rebuilt: restarting next dev");
    restarting = true;
    app.child.kill("SIGTERM");
    await app.exited;
    restarting = false;
    app = startApp();
  });
}
let app = startApp();

/**
 * Asks the server to stop and waits for it: it drains (docs/deploying.md, Graceful shutdown) while
 * the embedded database and the development job worker still run, and a process manager sees
 * this launcher exit only once the server has.
 */
async function shutdown(code?: number) {
  if (app.child.exitCode === null && app.child.signalCode === null) app.child.kill("SIGTERM");
  const appCode = await app.exited;
  await webhookWorker?.stop();
  await embedded?.stop();
  process.exit(code ?? appCode);
}
process.on("SIGINT", () => void shutdown(0));
process.on("SIGTERM", () => void shutdown(0));

// Where this machine reaches the server: localhost for loopback and every-interface addresses
// (passkeys need a domain name: README), else the address itself.
const reachableHost = ["127.0.0.1", "::1", "0.0.0.0", "::"].includes(hostname) ? "localhost" : hostname.includes(":") ? `[${hostname}]` : hostname;
const baseUrl = `http://${reachableHost}:${port}`;
await waitUntilServing(`${baseUrl}/api/v1/openapi.json`, app.child, 10 * 60_000);
log.info(`Blog Manager is running at ${baseUrl}; API reference (OpenAPI): ${baseUrl}/api/v1/openapi.json`);
if (demo?.apiKey) {
  // Development only (a production server never holds the key): a banner for the person at the terminal.
  console.log(`\nDemo login: ${demo.email} / ${demo.password}`);
  console.log(`Demo API key (all permissions): ${demo.apiKey}`);
  console.log(`Try it:\n  curl -s -H "x-api-key: ${demo.apiKey}" "${baseUrl}/api/v1/blogs?limit=5"\n`);
} else if (demo) {
  log.info(`Demo login: ${demo.email} / ${demo.password}; no API key is made in production: create one at ${baseUrl}/dashboard/keys`);
}

/**
 * What a production server on one machine goes without, said once here rather than by each
 * process or route bundle: a session secret from the environment (a generated one is kept under
 * DATA_DIR, owner-only), a shared rate-limit store, and the origin of emailed links. On Vercel all are required.
 */
async function announceSingleMachineSettings(): Promise<void> {
  if (!process.env.BETTER_AUTH_SECRET) {
    const file = join(dataDir, "auth-secret");
    let secret = (await readSecretFile(file))?.trim();
    if (!secret) await writeSecretFile(file, (secret = randomBytes(32).toString("hex")));
    process.env.BETTER_AUTH_SECRET = secret;
    log.warn(`BETTER_AUTH_SECRET is not set: sessions are signed with the secret kept in ${file}, valid on this machine only`);
  }
  if (!(process.env.UPSTASH_REDIS_REST_URL && process.env.UPSTASH_REDIS_REST_TOKEN) && !process.env.REDIS_URL) {
    log.warn("No rate-limit store (UPSTASH_REDIS_REST_URL and _TOKEN, or REDIS_URL): limits are kept in this process, exact for one server only");
  }
  if (process.env.SMTP_URL && !process.env.BETTER_AUTH_URL) {
    log.warn("SMTP_URL is set without BETTER_AUTH_URL: emails with links are sent only to requests made at this machine (localhost), as a forged Host could redirect them");
  }
}
