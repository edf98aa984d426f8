/**
 * `npm run dev` / `npm start`: runs the app (`next dev`, or the production server of
 * src/server/http-server.ts) on DATABASE_URL, or, when it is unset, on embedded PostgreSQL
 * (PGlite, data under DATA_DIR) seeded with a demo account on first run. Pending migrations are
 * applied first either way.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { startEmbeddedPostgres, type EmbeddedPostgres } from "../src/server/db/embedded";
import { applyMigrations } from "../src/server/db/migrate";
import { NEXT_BIN } from "./lib/next-bin";
import { PRODUCTION_SERVER, waitUntilServing } from "./lib/next-server";

const mode = process.argv[2] === "start" ? "start" : "dev";
const port = process.env.PORT ?? "3000";
const dataDir = process.env.DATA_DIR ?? ".data";

let embedded: EmbeddedPostgres | undefined;
let databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) {
  embedded = await startEmbeddedPostgres({ dataDir: join(dataDir, "pglite") });
  databaseUrl = embedded.url;
  console.log(`Embedded PostgreSQL (PGlite) serving ${join(dataDir, "pglite")} at ${databaseUrl}`);
}
process.env.DATABASE_URL = databaseUrl;

// A production server keeps dashboard sessions across restarts with a secret of its own.
if (mode === "start" && !process.env.BETTER_AUTH_SECRET) {
  process.env.BETTER_AUTH_SECRET = await persistedSecret(join(dataDir, "auth-secret"));
}

const { applied } = await applyMigrations(databaseUrl);
console.log(applied.length ? `Applied migrations: ${applied.join(", ")}` : "Database schema is up to date");

// Imported after DATABASE_URL is set: the app's modules read the environment when loaded.
const demo = embedded ? await (await import("../src/server/demo/seed-demo")).ensureDemoAccount(dataDir) : undefined;

// Production: the production server (src/server/http-server.ts, Next behind it); development: `next dev`.
const serverArgs = mode === "start" ? ["--import", "tsx", PRODUCTION_SERVER] : [NEXT_BIN, "dev"];
const app = spawn(process.execPath, serverArgs, {
  stdio: "inherit",
  env: {
    ...process.env,
    PORT: port,
    ...(mode === "start" && { NODE_ENV: "production" }),
    NEXT_TELEMETRY_DISABLED: "1",
    // PGlite has a single session: a small pool keeps requests from queueing on dead sockets.
    ...(embedded && { DATABASE_POOL_SIZE: process.env.DATABASE_POOL_SIZE ?? "4" }),
  },
});

async function shutdown(code: number) {
  app.kill("SIGTERM");
  await embedded?.stop();
  process.exit(code);
}
process.on("SIGINT", () => void shutdown(0));
process.on("SIGTERM", () => void shutdown(0));
app.on("exit", (code) => void shutdown(code ?? 0));

const baseUrl = `http://localhost:${port}`;
await waitUntilServing(`${baseUrl}/api/v1/openapi.json`, app, 10 * 60_000);
console.log(`\nBlog Manager is running at ${baseUrl}`);
console.log(`API reference (OpenAPI): ${baseUrl}/api/v1/openapi.json`);
if (demo) {
  console.log(`Demo login: ${demo.email} / ${demo.password}`);
  console.log(`Demo API key (all permissions): ${demo.apiKey}`);
  console.log(`Try it:\n  curl -s -H "x-api-key: ${demo.apiKey}" "${baseUrl}/api/v1/blogs?limit=5"\n`);
}

async function persistedSecret(file: string): Promise<string> {
  const saved = await readFile(file, "utf8").catch(() => "");
  if (saved.trim()) return saved.trim();
  const secret = randomBytes(32).toString("hex");
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, secret, { mode: 0o600 });
  return secret;
}
