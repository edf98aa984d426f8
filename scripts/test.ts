/**
 * `npm test`: the whole suite against a real server. Prepares a fresh database (a new database
 * on DATABASE_URL's server, or in-memory embedded PostgreSQL when DATABASE_URL is unset), builds
 * and starts the production server on it, then runs Vitest (unit and HTTP tests) and Playwright
 * (browser tests) against that server, and last the multi-instance tests (tests/cluster: three
 * servers behind HAProxy on PgBouncer, scripts/lib/cluster.ts, which installs both from Debian's
 * packages when missing). REDIS_URL, when set, is used by the servers and the tests.
 *
 * The browser tests use CHROMIUM_PATH, else Debian's Chromium, else Playwright's own, installed
 * first when missing (the run stops at once, naming the command, if that fails).
 *
 * `npm test -- tests/security` runs only the Vitest files matching the arguments, `npm test --
 * e2e/keys.spec.ts` only those browser specs, `npm test -- tests/cluster` only the rig's tests; `SKIP_BUILD=1` reuses the last `npm run build`
 * (enough when only tests changed).
 *
 * The server sends its emails to a mailbox of the run's own (scripts/lib/mailbox.ts), which the
 * tests read. Every server's output goes to its own file under test-results/, never to the console
 * (scripts/lib/server-logs.ts): this server's to test-results/server.log, whose last lines are
 * printed when the tests fail. All those logs are scanned after the run: a key, a test password, a
 * session cookie or `api_key=` in any of them fails the run.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { applyMigrations } from "../src/server/db/migrate";
import { ensureChromium } from "./lib/chromium";
import { startMailbox, type RunningMailbox } from "./lib/mailbox";
import { startProductionServer, type RunningServer } from "./lib/next-server";
import { createScratchDatabase, query } from "./lib/scratch-database";
import { findSecrets, passwordsInTests } from "./lib/secret-scan";
import { MAIN_SERVER_LOG, printLogTail, removeServerLogs, serverLogFiles } from "./lib/server-logs";

const skipBuild = process.env.SKIP_BUILD === "1";
const filters = process.argv.slice(2);
// Arguments under e2e/ choose browser specs, under tests/cluster the rig's tests, the others Vitest
// files; none: everything.
const browserFilters = filters.filter((filter) => filter.startsWith("e2e/"));
const clusterFilters = filters.filter((filter) => filter.startsWith("tests/cluster"));
const vitestFilters = filters.filter((filter) => !filter.startsWith("e2e/") && !filter.startsWith("tests/cluster"));
const runsVitest = filters.length === 0 || vitestFilters.length > 0;
const runsBrowserTests = filters.length === 0 || browserFilters.length > 0;
const runsClusterTests = filters.length === 0 || clusterFilters.length > 0;
// Before the database and the build: a missing browser stops the run now, not minutes later.
const noChromium = runsBrowserTests ? ensureChromium() : null;
if (noChromium) {
  console.error(`[test] ${noChromium}`);
  process.exit(1);
}
const database = await createScratchDatabase(process.env.DATABASE_URL, "blogmgr_test");
const databaseUrl = database.url;
console.log(`[test] database ${databaseUrl}; rate limits ${process.env.REDIS_URL ? `on ${process.env.REDIS_URL}` : "in process"}`);

let server: RunningServer | undefined;
let mailbox: RunningMailbox | undefined;
let exitCode = 1;
try {
  await removeServerLogs();
  await applyMigrations(databaseUrl);
  // Every email the suite's server sends (its job worker sends them all) lands in this mailbox,
  // which the tests read by recipient (tests/support/mailbox.ts).
  mailbox = await startMailbox();
  // Webhook receivers in the tests listen on 127.0.0.1 and retry within seconds (docs/webhooks.md).
  const env = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    NEXT_TELEMETRY_DISABLED: "1",
    WEBHOOK_ALLOW_PRIVATE_URLS: "1",
    WEBHOOK_RETRY_SCHEDULE: "1s,2s,4s",
    CRON_SECRET: randomBytes(24).toString("hex"),
    SMTP_URL: mailbox.smtpUrl,
    EMAIL_FROM: "Blog Manager <no-reply@example.test>",
  };
  if (!skipBuild) await run("npm", ["run", "build"], env);
  server = await startProductionServer(env, { logFile: MAIN_SERVER_LOG });
  // Servers a test starts of its own run no job worker (WEBHOOK_WORKER=0): the jobs queued on the
  // shared database are this server's, and none is taken by a server a test stops or cuts off.
  const testEnv = { ...env, API_BASE_URL: server.baseUrl, WEBHOOK_WORKER: "0", MAILBOX_URL: mailbox.apiUrl };
  if (runsVitest) await runAgainstServer("npx", ["--no-install", "vitest", "run", "--project", "unit", "--project", "integration", ...vitestFilters], testEnv);
  if (runsBrowserTests) await runAgainstServer("npx", ["--no-install", "playwright", "test", ...browserFilters], testEnv);
  // Last: the rig's three instances and their restarts would weigh on every test running beside them.
  // Several servers need a database server and a shared rate-limit store, not embedded PostgreSQL.
  if (runsClusterTests && (database.embedded || !process.env.REDIS_URL)) {
    console.log("[test] tests/cluster skipped: the multi-instance rig needs DATABASE_URL (a PostgreSQL server) and REDIS_URL");
  } else if (runsClusterTests) {
    await run("npx", ["--no-install", "vitest", "run", "--project", "cluster", ...clusterFilters], testEnv);
  }
  exitCode = 0;
} catch (error) {
  console.error(`[test] ${error instanceof Error ? error.message : String(error)}`);
  // A server that did not start says why at the end of its log.
  if (!server) await printLogTail(MAIN_SERVER_LOG);
} finally {
  await server?.stop();
  await mailbox?.stop();
  if (!(await serverLogsAreClean())) exitCode = 1;
  await database.drop();
}
process.exit(exitCode);

/** Reports whether every server log of the run is free of secrets (docs/security.md). */
async function serverLogsAreClean(): Promise<boolean> {
  const files = await serverLogFiles();
  if (files.length === 0) return true;
  const sessions = await query<{ token: string }>(databaseUrl, 'SELECT token FROM "session"');
  const known = { passwords: await passwordsInTests(["tests", "e2e"]), sessionTokens: sessions.map((row) => row.token) };
  let lines = 0;
  let secrets = 0;
  for (const file of files) {
    const text = await readFile(file, "utf8");
    const findings = findSecrets(text, known);
    for (const { line, kind } of findings) console.error(`[test] ${file}:${line} holds a secret: ${kind}`);
    lines += text.split("\n").filter(Boolean).length;
    secrets += findings.length;
  }
  const found = secrets ? `${secrets} secret(s) found` : "no key, password, session cookie or api_key= in them";
  console.log(`[test] ${files.length} server log(s) under test-results/: ${lines} lines scanned, ${found}`);
  return secrets === 0;
}

/** Runs tests against the suite's server; when they fail, prints the end of its log. */
async function runAgainstServer(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  try {
    await run(command, args, env);
  } catch (error) {
    await printLogTail(MAIN_SERVER_LOG);
    throw error;
  }
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: "inherit" });
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${args.slice(1).join(" ")} exited with ${code}`))));
  });
}
