/**
 * `npm test`: the whole suite against a real server. Prepares a fresh database (a new database
 * on DATABASE_URL's server, or in-memory embedded PostgreSQL when DATABASE_URL is unset), builds
 * and starts the production server on it, then runs Vitest (unit and HTTP tests) and Playwright
 * (browser tests) against that server. REDIS_URL, when set, is used by the server and the tests.
 */
import { spawn } from "node:child_process";
import { applyMigrations } from "../src/server/db/migrate";
import { startProductionServer, type RunningServer } from "./lib/next-server";
import { createScratchDatabase } from "./lib/scratch-database";

const skipBuild = process.env.SKIP_BUILD === "1";
const database = await createScratchDatabase(process.env.DATABASE_URL, "blogmgr_test");
const databaseUrl = database.url;
console.log(`[test] database ${databaseUrl}; rate limits ${process.env.REDIS_URL ? `on ${process.env.REDIS_URL}` : "in process"}`);

let server: RunningServer | undefined;
let exitCode = 1;
try {
  await applyMigrations(databaseUrl);
  const env = { ...process.env, DATABASE_URL: databaseUrl, NEXT_TELEMETRY_DISABLED: "1" };
  if (!skipBuild) await run("npx", ["--no-install", "next", "build"], env);
  server = await startProductionServer(env);
  const testEnv = { ...env, API_BASE_URL: server.baseUrl };
  await run("npx", ["--no-install", "vitest", "run"], testEnv);
  await run("npx", ["--no-install", "playwright", "test"], testEnv);
  exitCode = 0;
} catch (error) {
  console.error(`[test] ${error instanceof Error ? error.message : String(error)}`);
} finally {
  server?.stop();
  await database.drop();
}
process.exit(exitCode);

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: "inherit" });
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${args.slice(1).join(" ")} exited with ${code}`))));
  });
}
