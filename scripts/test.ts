/**
 * `npm test`: the whole suite against a real server. Prepares a fresh database (a new database
 * on DATABASE_URL's server, or in-memory embedded PostgreSQL when DATABASE_URL is unset), builds
 * and starts the production server on it, then runs Vitest (unit and HTTP tests) and Playwright
 * (browser tests) against that server. REDIS_URL, when set, is used by the server and the tests.
 */
import { spawn } from "node:child_process";
import pg from "pg";
import { startEmbeddedPostgres, type EmbeddedPostgres } from "../src/server/db/embedded";
import { applyMigrations } from "../src/server/db/migrate";
import { startNextServer, type RunningServer } from "./lib/next-server";

const skipBuild = process.env.SKIP_BUILD === "1";
const serverUrl = process.env.DATABASE_URL;
let embedded: EmbeddedPostgres | undefined;
let databaseUrl: string;
let dropDatabase = async () => {};

if (serverUrl) {
  const name = `blogmgr_test_${Date.now()}_${process.pid}`;
  await adminQuery(serverUrl, `CREATE DATABASE ${name}`);
  dropDatabase = () => adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  databaseUrl = url.toString();
} else {
  embedded = await startEmbeddedPostgres({ dataDir: "memory://" });
  databaseUrl = embedded.url;
}
console.log(`[test] database ${databaseUrl}; rate limits ${process.env.REDIS_URL ? `on ${process.env.REDIS_URL}` : "in process"}`);

let server: RunningServer | undefined;
let exitCode = 1;
try {
  await applyMigrations(databaseUrl);
  const env = { ...process.env, DATABASE_URL: databaseUrl, NEXT_TELEMETRY_DISABLED: "1" };
  if (!skipBuild) await run("npx", ["--no-install", "next", "build"], env);
  server = await startNextServer(env);
  const testEnv = { ...env, API_BASE_URL: server.baseUrl };
  await run("npx", ["--no-install", "vitest", "run"], testEnv);
  await run("npx", ["--no-install", "playwright", "test"], testEnv);
  exitCode = 0;
} catch (error) {
  console.error(`[test] ${error instanceof Error ? error.message : String(error)}`);
} finally {
  server?.stop();
  await embedded?.stop();
  await dropDatabase();
}
process.exit(exitCode);

async function adminQuery(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: "inherit" });
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${args.slice(1).join(" ")} exited with ${code}`))));
  });
}
