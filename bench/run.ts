/**
 * `npm run bench`: the API's hot path (GET /api/v1/blogs) on the production build, measured with
 * autocannon against a bare node:http baseline doing the same work (bench/baseline.ts), the
 * public pages and an image's file against a bare node:http server answering their bytes from
 * memory (bench/bare-page-server.ts), and uploads of a 3 MB photo with (a) measured alongside.
 *
 * Environment (all optional):
 *   DATABASE_URL          server to use (default postgresql://postgres@127.0.0.1:5432/postgres);
 *                         the bench works in its own database on it, BENCH_DATABASE (blogmgr_bench)
 *   REDIS_URL             rate-limit store (default redis://127.0.0.1:6379)
 *   BENCH_SECONDS         measured seconds per scenario and server (default 10), in BENCH_ROUNDS
 *                         bursts (default 5) alternating between app and baseline
 *   BENCH_WARMUP_SECONDS  unmeasured warm-up of each server before a scenario's bursts (default 2)
 *   BENCH_LONG_SECONDS    the memory run (e), app only (default 300)
 *   BENCH_SKIP_BUILD=1    reuse the existing build (`npm run build`)
 *   DATABASE_POOL_SIZE    connections per server process, app and baseline alike (default 10)
 *   BENCH_CPU_PROFILE_DIR run both servers with `--cpu-prof`, their profiles written on exit under
 *                         its app/ and baseline/ (one a thread; bench/profile-summary.ts reads them)
 *   BENCH_ONLY            comma-separated scenario ids to run (e.g. `f1,f2` for the public pages,
 *                         `g1,g2` for images, `n` for a newsletter to 10,000 subscribers);
 *                         skips the correctness checks, the baseline when not needed, and (e)
 *                         unless `e` is listed (e.g. `a,e`)
 *
 * Rate limits: every request runs the real limiter (one Lua script per request in Redis), and the
 * bench keeps the budgets from being hit by resetting the bench accounts' current windows before
 * every measurement and every 15 s during it (DEL of their window keys), so the 200 scenarios
 * never see a 429 however fast the server is. The exhausted account's window is set far over its
 * limit instead, for the 429 scenario.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { Redis } from "ioredis";
import pg from "pg";
import { freePort, startProductionServer, type RunningServer } from "../scripts/lib/next-server";
import { markedPhoto, photoJpeg } from "./photo";
import { NEWSLETTER_SUBSCRIBERS, newsletterState, publishNewsletter, seedNewsletter, startSmtpSink, type SmtpSink } from "./newsletter";
import { longMarkdown, seedPublicPages } from "./public-seed";
import { benchKey, seedBenchDatabase, type BenchData } from "./seed";

const env = process.env;
const SECONDS = Number(env.BENCH_SECONDS ?? 10);
const WARMUP = Number(env.BENCH_WARMUP_SECONDS ?? 2);
const ROUNDS = Number(env.BENCH_ROUNDS ?? 5);
const LONG_SECONDS = Number(env.BENCH_LONG_SECONDS ?? 300);
const SERVER_URL = env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const REDIS_URL = env.REDIS_URL ?? "redis://127.0.0.1:6379";
const DATABASE = env.BENCH_DATABASE ?? "blogmgr_bench";
const POOL_SIZE = env.DATABASE_POOL_SIZE ?? "10";
const WINDOW_MS = 3_600_000;
const cpuProfile = (name: string) =>
  env.BENCH_CPU_PROFILE_DIR ? ["--cpu-prof", `--cpu-prof-dir=${env.BENCH_CPU_PROFILE_DIR}/${name}`] : [];
const ONLY = env.BENCH_ONLY ? new Set(env.BENCH_ONLY.split(",")) : undefined;
/**
 * Every request comes from a browser, from another site: the public pages count each as a reader's
 * view (docs/public-blog.md, Views), referrer host included, as they would for real readers.
 */
const READER_HEADERS = {
  "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  referer: "https://news.example.com/front",
};
/** Clients uploading at once in g2: more than the one the server processes at a time, so its queue is never empty. */
const UPLOADERS = 2;
/** Photos uploaded one at a time on the idle server in (g2), each after the last one's variants were made. */
const IDLE_UPLOADS = 9;

const log = (line: string) => console.log(`[bench] ${line}`);
/** Headers of the connection, not of the answer: the two servers' keep-alive and framing differ. */
const TRANSPORT_HEADERS = new Set(["date", "connection", "keep-alive", "transfer-encoding", "content-length"]);

interface Scenario {
  id: string;
  title: string;
  connections: number;
  /** Request paths with their key (none for public pages), cycled round-robin. */
  requests: { path: string; key?: string }[];
  expect: number;
  /** "bare": measured against the same bytes from memory (bench/bare-page-server.ts), not the API's baseline (bench/baseline.ts). */
  baseline?: "bare";
}

interface Measurement {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  unexpected: number;
}

const data = await seedBenchDatabase(SERVER_URL, DATABASE, log);
const redis = new Redis(REDIS_URL);
const db = new pg.Client({ connectionString: data.url });
await db.connect();
const publicPages = await seedPublicPages(db, log);

if (env.BENCH_SKIP_BUILD !== "1") {
  log("building (flock /tmp/next-build.lock npm run build)");
  await run("flock", ["/tmp/next-build.lock", "npm", "run", "build"]);
}

// (n): the app's emails go to a local sink, unthrottled.
const sink: SmtpSink | undefined = !ONLY || ONLY.has("n") ? await startSmtpSink() : undefined;
const serverEnv = {
  ...env,
  ...(sink && { SMTP_URL: sink.url, EMAIL_FROM: "Bench <bench@sink.example>", NEWSLETTER_RATE_PER_MINUTE: "0" }),
  DATABASE_URL: data.url,
  REDIS_URL,
  DATABASE_POOL_SIZE: POOL_SIZE,
  NEXT_TELEMETRY_DISABLED: "1",
  // The dashboard's sessions are not exercised; production wants a secret all the same.
  BETTER_AUTH_SECRET: env.BETTER_AUTH_SECRET ?? randomBytes(32).toString("hex"),
};
let app: RunningServer | undefined;
let baseline: ChildProcess | undefined;
let bare: ChildProcess | undefined;
let resetTimer: ReturnType<typeof setInterval> | undefined;
try {
  app = await startProductionServer(serverEnv, { nodeArgs: cpuProfile("app") });
  const appPid = app.pid;
  const publicBlogPath = `/${publicPages.handle}/${publicPages.blogSlug}`;
  await checkPublicPages(app.baseUrl, publicBlogPath, `/${publicPages.handle}`);

  const small = data.small;
  const year = "from=2024-01-01&to=2024-12-31";
  const apiScenarios = (cursor: string): Scenario[] => [
    { id: "a", title: "(a) page 1, limit 10, 50 accounts", connections: 50, requests: small.map((a) => ({ path: "/api/v1/blogs?limit=10", key: a.key })), expect: 200 },
    { id: "b1", title: "(b) 1M: page 1, limit 50", connections: 1, requests: [{ path: "/api/v1/blogs?limit=50", key: data.big.key }], expect: 200 },
    { id: "b2", title: "(b) 1M: public=true", connections: 1, requests: [{ path: "/api/v1/blogs?limit=50&public=true", key: data.big.key }], expect: 200 },
    { id: "b3", title: "(b) 1M: from/to one year", connections: 1, requests: [{ path: `/api/v1/blogs?limit=50&${year}`, key: data.big.key }], expect: 200 },
    { id: "b4", title: "(b) 1M: public + from/to", connections: 1, requests: [{ path: `/api/v1/blogs?limit=50&public=true&${year}`, key: data.big.key }], expect: 200 },
    { id: "c1", title: "(c) 1M: page 10,000 by number", connections: 1, requests: [{ path: "/api/v1/blogs?limit=50&page=10000", key: data.big.key }], expect: 200 },
    { id: "c2", title: "(c) 1M: page 10,000 by cursor", connections: 1, requests: [{ path: `/api/v1/blogs?cursor=${cursor}`, key: data.big.key }], expect: 200 },
    { id: "d1", title: "(d) 401 unknown key", connections: 50, requests: [{ path: "/api/v1/blogs?limit=10", key: benchKey("nobody") }], expect: 401 },
    { id: "d2", title: "(d) 429 exhausted account", connections: 50, requests: [{ path: "/api/v1/blogs?limit=10", key: data.exhausted.key }], expect: 429 },
  ];
  const publicScenarios: Scenario[] = [
    { id: "f1", title: `(f) public blog page, ${(longMarkdown().length / 1024).toFixed(0)} KB Markdown`, connections: 50, requests: [{ path: publicBlogPath }], expect: 200, baseline: "bare" },
    { id: "f2", title: "(f) public index /{handle}, page 1", connections: 50, requests: [{ path: `/${publicPages.handle}` }], expect: 200, baseline: "bare" },
  ];
  const wanted = (s: Scenario) => !ONLY || ONLY.has(s.id);
  // (g): a 3 MB photo, uploaded once for its files; then uploaded again and again in g2, each time as other bytes.
  const photo = !ONLY || ONLY.has("g1") || ONLY.has("g2") ? await photoJpeg(4000, 3000, 95) : undefined;
  if (photo) {
    const variant = (await photoVariants(app.baseUrl, await uploadPhoto(app.baseUrl, photo))).find((file) => file.url.endsWith("/960w.webp"))!;
    publicScenarios.push({ id: "g1", title: "(g) image file, 960 px WebP", connections: 50, requests: [{ path: new URL(variant.url).pathname }], expect: 200, baseline: "bare" });
  }
  const needsBaseline = !ONLY || apiScenarios("").some((s) => wanted(s));
  let bareUrl = "";
  if (publicScenarios.some(wanted)) {
    const barePort = await freePort();
    const pagesFile = join(tmpdir(), `bench-pages-${process.pid}.json`);
    writeFileSync(pagesFile, JSON.stringify(await pageBytes(app.baseUrl, publicScenarios.map((scenario) => scenario.requests[0]!.path))));
    bare = spawn(process.execPath, [...cpuProfile("bare"), "--import", "tsx", "bench/bare-page-server.ts"], {
      env: { ...env, PORT: String(barePort), BENCH_PAGES_FILE: pagesFile },
      stdio: "ignore",
    });
    bareUrl = `http://127.0.0.1:${barePort}`;
    await waitForStatus(`${bareUrl}${publicBlogPath}`, 200);
    log(`bare page server ${bareUrl} (pid ${bare.pid})`);
  }
  let baselineUrl = "";
  let checks: Awaited<ReturnType<typeof correctnessChecks>> | undefined;
  if (needsBaseline) {
    const baselinePort = await freePort();
    baseline = spawn(process.execPath, [...cpuProfile("baseline"), "--conditions=react-server", "--import", "tsx", "bench/baseline.ts"], {
      env: { ...serverEnv, NODE_ENV: "production", PORT: String(baselinePort) },
      // Quiet as the app: both write their access log line of every request to nowhere.
      stdio: "ignore",
    });
    baselineUrl = `http://127.0.0.1:${baselinePort}`;
    await waitForStatus(`${baselineUrl}/api/v1/blogs`, 401);
    log(`app ${app.baseUrl} (pid ${appPid}), baseline ${baselineUrl} (pid ${baseline.pid})`);
    await resetBudgets();
    checks = await correctnessChecks(app.baseUrl, baselineUrl);
  }
  const scenarios = [...apiScenarios(checks?.cursor ?? ""), ...publicScenarios].filter(wanted);

  resetTimer = setInterval(() => void resetBudgets(), 15_000);
  const results: Result[] = [];
  for (const scenario of scenarios) {
    const { app: appResult, baseline: baseResult } = await measureAlternating(scenario, app.baseUrl, scenario.baseline === "bare" ? bareUrl : baselineUrl);
    results.push({ scenario, app: appResult, baseline: baseResult });
    const versus = baseResult ? `; baseline ${baseResult.rps.toFixed(0)} req/s p50 ${baseResult.p50} ms p99 ${baseResult.p99} ms` : "";
    log(`${scenario.title}: app ${appResult.rps.toFixed(0)} req/s p50 ${appResult.p50} ms p99 ${appResult.p99} ms${versus}`);
  }
  if (publicScenarios.some(wanted)) {
    // The app writes its counted views about once a second: the last batch is in after that.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const { rows } = await db.query<{ views: string | null }>(`SELECT sum("views") AS "views" FROM "referrer_view_daily" WHERE "host" = 'news.example.com'`);
    log(`readers' views counted by the app during the public scenarios: ${rows[0]?.views ?? 0}`);
  }
  const uploads = photo && (!ONLY || ONLY.has("g2")) ? await uploadRun(app.baseUrl, apiScenarios("")[0]!, photo) : undefined;
  const newsletter = sink ? await newsletterRun(app.baseUrl, apiScenarios("")[0]!, appPid, sink) : undefined;
  // (e) the memory run: scenario (a) on the app for LONG_SECONDS, RSS sampled every 5 s.
  const memory = !ONLY || ONLY.has("e") ? await memoryRun(app.baseUrl, apiScenarios("")[0]!, appPid) : undefined;
  clearInterval(resetTimer);
  if (ONLY || !checks) {
    console.log("\n" + [renderTable(results), ...(memory ? renderMemory(memory) : []), ...(uploads ? renderUploads(uploads) : []), ...(newsletter ? renderNewsletter(newsletter) : [])].join("\n"));
    process.exitCode = results.some((r) => r.app.unexpected > 0) || (memory?.long.unexpected ?? 0) > 0 ? 1 : 0;
  } else {
    const report = [renderReport(results, memory!, checks, uploads!), ...renderNewsletter(newsletter!)].join("\n");
    console.log("\n" + report);
    mkdirSync("bench/results", { recursive: true });
    writeFileSync("bench/results/latest.md", report + "\n");
    writeFileSync("bench/results/latest.json", JSON.stringify({ results, ...memory, checks, uploads, newsletter }, null, 2));
    log("written to bench/results/latest.md and latest.json");
  }
} finally {
  clearInterval(resetTimer);
  // Both awaited: on exit they write their CPU profiles (BENCH_CPU_PROFILE_DIR).
  const baselineExited = baseline && baseline.exitCode === null ? new Promise((resolve) => baseline!.once("exit", resolve)) : undefined;
  baseline?.kill("SIGTERM");
  bare?.kill("SIGTERM");
  await Promise.all([app?.stop(), baselineExited]);
  await sink?.stop();
  await db.end();
  redis.disconnect();
}

/**
 * A scenario on each server in turn: one warm-up each, then ROUNDS bursts of SECONDS / ROUNDS each,
 * alternating servers (and which goes first), so that the machine's drift, which on a shared VM
 * moves throughput by a third from one minute to the next, weighs on app and baseline alike.
 * req/s is all the bursts' requests over their time; p50 and p99 are the bursts' medians.
 */
async function measureAlternating(scenario: Scenario, appUrl: string, baselineUrl?: string): Promise<{ app: Measurement; baseline?: Measurement }> {
  const servers = baselineUrl ? [appUrl, baselineUrl] : [appUrl];
  for (const url of servers) {
    await resetTables();
    await cannon(url, scenario, WARMUP);
  }
  const bursts = servers.map((): Measurement[] => []);
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? servers.keys() : [...servers.keys()].reverse();
    for (const i of order) bursts[i]!.push(await measure(servers[i]!, scenario, SECONDS / ROUNDS));
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const [app, baseline] = bursts.map((runs) => {
    const requests = runs.reduce((sum, run) => sum + run.requests, 0);
    return {
      rps: requests / SECONDS,
      p50: median(runs.map((run) => run.p50)),
      p99: median(runs.map((run) => run.p99)),
      requests,
      unexpected: runs.reduce((sum, run) => sum + run.unexpected, 0),
    };
  });
  return { app: app!, baseline };
}

/** One burst of `seconds` on one server, from fresh tables and budgets. */
async function measure(baseUrl: string, scenario: Scenario, seconds: number): Promise<Measurement> {
  await resetTables();
  const result = await cannon(baseUrl, scenario, seconds);
  const expectedClass = `${String(scenario.expect)[0]}xx` as "2xx" | "4xx";
  const statusCounts = (result as unknown as { statusCodeStats?: Record<string, { count: number }> }).statusCodeStats ?? {};
  const expected = statusCounts[String(scenario.expect)]?.count ?? result[expectedClass];
  const unexpected = result.requests.total - expected + result.errors + result.timeouts;
  if (unexpected > 0) log(`WARNING ${scenario.title} on ${baseUrl}: ${unexpected} responses other than ${scenario.expect}: ${JSON.stringify(statusCounts)} errors ${result.errors} timeouts ${result.timeouts}`);
  return { rps: result.requests.total / seconds, p50: result.latency.p50, p99: result.latency.p99, requests: result.requests.total, unexpected };
}

/**
 * Every burst starts from the same tables and budgets. The request log rows the usage flush's trim
 * deleted are cleared as autovacuum would (CI's PostgreSQL runs without it): left, each flush steps
 * over all of them again, and PostgreSQL's cost per request grows run after run.
 */
async function resetTables(): Promise<void> {
  await db.query(`VACUUM "api_request_log", "usage_daily", "api_key"`);
  await resetBudgets();
}

function cannon(baseUrl: string, scenario: Scenario, seconds: number): Promise<autocannon.Result> {
  let next = 0;
  return autocannon({
    url: baseUrl,
    connections: scenario.connections,
    duration: seconds,
    // Slow pages (an uncached Markdown render under 50 connections) still count, late.
    timeout: 60,
    requests: [
      {
        setupRequest: (req) => {
          const r = scenario.requests[next++ % scenario.requests.length]!;
          const key = r.key ? { "x-api-key": r.key, "content-type": "application/json" } : {};
          return { ...req, method: "GET", path: r.path, headers: { ...req.headers, ...READER_HEADERS, ...key } };
        },
      },
    ],
  });
}

/** Clears the bench accounts' current windows; puts the exhausted account far over its limit. */
async function resetBudgets(): Promise<void> {
  const bucket = Math.floor(Date.now() / WINDOW_MS);
  const ids = [...data.small, data.big].map((a) => a.id);
  const multi = redis.multi();
  for (const id of ids) multi.del(`@upstash/ratelimit:account:${id}:${bucket}`, `@upstash/ratelimit:account:${id}:${bucket + 1}`);
  multi.set(`@upstash/ratelimit:account:${data.exhausted.id}:${bucket}`, "1000000000", "PX", WINDOW_MS);
  multi.set(`@upstash/ratelimit:account:${data.exhausted.id}:${bucket + 1}`, "1000000000", "PX", 2 * WINDOW_MS);
  await multi.exec();
}

/** Where two texts part, with a little of each from there, for a failed check's log line. */
function firstDifference(a: string, b: string): string {
  let at = 0;
  while (at < a.length && a[at] === b[at]) at++;
  return at === a.length && at === b.length ? "identical" : `from character ${at}: ${JSON.stringify(a.slice(at, at + 80))} vs ${JSON.stringify(b.slice(at, at + 80))}`;
}

/** Totals against count(*), cursor against page number, statuses of (d), on both servers. */
async function correctnessChecks(appUrl: string, baselineUrl: string) {
  const get = async (base: string, path: string, key: string) => {
    const response = await fetch(base + path, { headers: { "x-api-key": key } });
    return { status: response.status, body: (await response.json()) as any }; // eslint-disable-line @typescript-eslint/no-explicit-any
  };
  const year = { from: "2024-01-01", to: "2024-12-31" };
  const variants = [
    { name: "unfiltered", query: "", where: "" },
    { name: "public=true", query: "&public=true", where: `AND "isPublic"` },
    { name: "one year", query: `&from=${year.from}&to=${year.to}`, where: `AND "createdAt" >= '${year.from}T00:00:00Z' AND "createdAt" < '2025-01-01T00:00:00Z'` },
    { name: "public + one year", query: `&public=true&from=${year.from}&to=${year.to}`, where: `AND "isPublic" AND "createdAt" >= '${year.from}T00:00:00Z' AND "createdAt" < '2025-01-01T00:00:00Z'` },
  ];
  const totals: { variant: string; countStar: number; app: number; baseline: number }[] = [];
  for (const v of variants) {
    const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM "blog" WHERE "userId" = $1 AND "allowApiAccess" ${v.where}`, [data.big.id]);
    const a = await get(appUrl, `/api/v1/blogs?limit=50${v.query}`, data.big.key);
    const b = await get(baselineUrl, `/api/v1/blogs?limit=50${v.query}`, data.big.key);
    totals.push({ variant: v.name, countStar: rows[0]!.n, app: a.body.data.pagination.total, baseline: b.body.data.pagination.total });
  }
  const exact = totals.every((t) => t.countStar === t.app && t.countStar === t.baseline);
  log(`totals vs count(*): ${totals.map((t) => `${t.variant} ${t.countStar}/${t.app}/${t.baseline}`).join("; ")} -> ${exact ? "exact" : "MISMATCH"}`);

  // The cursor of page 10,000: nextCursor of page 9,999; its page must equal page 10,000 by number.
  const before = await get(appUrl, "/api/v1/blogs?limit=50&page=9999", data.big.key);
  const cursor: string = before.body.data.pagination.nextCursor;
  const byNumber = await get(appUrl, "/api/v1/blogs?limit=50&page=10000", data.big.key);
  const byCursor = await get(appUrl, `/api/v1/blogs?cursor=${cursor}`, data.big.key);
  const baseCursor = await get(baselineUrl, `/api/v1/blogs?cursor=${cursor}`, data.big.key);
  const ids = (r: { body: any }) => r.body.data.blogs.map((b: { id: string }) => b.id).join(","); // eslint-disable-line @typescript-eslint/no-explicit-any
  const cursorMatches =
    ids(byNumber) === ids(byCursor) &&
    ids(byCursor) === ids(baseCursor) &&
    JSON.stringify(byNumber.body.data.pagination) === JSON.stringify(byCursor.body.data.pagination) &&
    JSON.stringify(byCursor.body) === JSON.stringify(baseCursor.body);
  log(`page 10,000 by cursor ${cursorMatches ? "equals" : "DIFFERS FROM"} page 10,000 by number (and the baseline's answer)`);
  if (!cursorMatches) log(`  by number vs app's cursor: ${firstDifference(JSON.stringify(byNumber.body), JSON.stringify(byCursor.body))}; app's vs baseline's: ${firstDifference(JSON.stringify(byCursor.body), JSON.stringify(baseCursor.body))}`);
  // (a)'s answers: the same body, ETag and headers (their values may differ: request id, date, budget).
  const [appAnswer, baseAnswer] = await Promise.all([appUrl, baselineUrl].map((base) => fetch(`${base}/api/v1/blogs?limit=10`, { headers: { "x-api-key": data.small[0]!.key } })));
  const [appText, baseText] = await Promise.all([appAnswer!.text(), baseAnswer!.text()]);
  const headerNames = (response: Response) => [...response.headers.keys()].filter((name) => !TRANSPORT_HEADERS.has(name)).sort().join(", ");
  const sameBody = appText === baseText && appAnswer!.headers.get("etag") === baseAnswer!.headers.get("etag") && headerNames(appAnswer!) === headerNames(baseAnswer!);
  log(
    `app and baseline answers for (a) ${sameBody ? "have identical bodies, ETags and header names" : `DIFFER: body ${firstDifference(appText, baseText)}; ETag ${appAnswer!.headers.get("etag")} / ${baseAnswer!.headers.get("etag")}; headers ${headerNames(appAnswer!)} / ${headerNames(baseAnswer!)}`}`,
  );
  const unknown = await get(appUrl, "/api/v1/blogs", benchKey("nobody"));
  const exhausted = await get(appUrl, "/api/v1/blogs", data.exhausted.key);
  log(`401 check: ${unknown.status} ${unknown.body.error?.code}; 429 check: ${exhausted.status} ${exhausted.body.error?.code}`);
  return { totals, exact, cursor, cursorMatches, sameBody };
}

type Result = { scenario: Scenario; app: Measurement; baseline: Measurement | undefined };

interface NewsletterRun {
  sent: number;
  failed: number;
  /** From the newsletter's start (the publication) to its end, as the app recorded them. */
  seconds: number;
  accepted: number;
  rss: { start: number; peak: number; end: number };
  alone: Measurement;
  during: Measurement;
}

/**
 * (n): (a) alone, then the post published to NEWSLETTER_SUBSCRIBERS subscribers and (a) measured
 * again while the app's worker sends it; the server's RSS sampled every second from the
 * publication to the end of the send.
 */
async function newsletterRun(baseUrl: string, scenario: Scenario, pid: number, sink: SmtpSink): Promise<NewsletterRun> {
  const blogId = await seedNewsletter(db);
  log(`(n) ${NEWSLETTER_SUBSCRIBERS.toLocaleString("en")} subscribers; (a) alone for ${SECONDS} s`);
  const alone = await measure(baseUrl, scenario, SECONDS);
  const acceptedBefore = sink.accepted();
  const rss = [rssKb(pid)];
  const sampler = setInterval(() => rss.push(rssKb(pid)), 1_000);
  await publishNewsletter(db, blogId);
  log(`(n) published; (a) for ${SECONDS} s while it is sent`);
  const during = await measure(baseUrl, scenario, SECONDS);
  const deadline = Date.now() + 15 * 60_000;
  let state = await newsletterState(db, blogId);
  while (state?.status !== "sent") {
    if (Date.now() > deadline) throw new Error(`(n) not sent within 15 minutes: ${JSON.stringify(state)}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
    state = await newsletterState(db, blogId);
  }
  clearInterval(sampler);
  rss.push(rssKb(pid));
  const seconds = (state.finishedAt!.getTime() - state.startedAt.getTime()) / 1000;
  const run = { sent: state.sent, failed: state.failed, seconds, accepted: sink.accepted() - acceptedBefore, rss: { start: rss[0]!, peak: Math.max(...rss), end: rss.at(-1)! }, alone, during };
  log(`(n) ${run.sent} sent, ${run.failed} failed in ${seconds.toFixed(1)} s (${(run.sent / seconds).toFixed(0)}/s); the sink accepted ${run.accepted}`);
  return run;
}

function renderNewsletter(run: NewsletterRun): string[] {
  return [
    "",
    `(n) One post to ${NEWSLETTER_SUBSCRIBERS.toLocaleString("en")} subscribers through a local SMTP sink, unthrottled: ${run.sent} sent, ${run.failed} failed in ${run.seconds.toFixed(1)} s, ` +
      `${(run.sent / run.seconds).toFixed(0)} messages/s (the sink accepted ${run.accepted}). Server RSS: start ${mb(run.rss.start)}, peak ${mb(run.rss.peak)}, end ${mb(run.rss.end)}.`,
    "",
    "| (a) measured | App req/s | App p50 ms | App p99 ms | During / alone req/s |",
    "|---|---:|---:|---:|---:|",
    `| alone | ${run.alone.rps.toFixed(0)} | ${ms(run.alone.p50)} | ${ms(run.alone.p99)} | |`,
    `| during the send | ${run.during.rps.toFixed(0)} | ${ms(run.during.p50)} | ${ms(run.during.p99)} | ${(run.during.rps / run.alone.rps).toFixed(2)} |`,
  ];
}
type MemoryRun = { long: Measurement; samples: { t: number; rss: number }[]; firstMinute: number; lastMinute: number; edge: number };

async function memoryRun(baseUrl: string, scenario: Scenario, pid: number): Promise<MemoryRun> {
  log(`(e) ${LONG_SECONDS} s of (a) on the app, sampling its RSS`);
  const samples: { t: number; rss: number }[] = [];
  const started = Date.now();
  const sample = () => samples.push({ t: (Date.now() - started) / 1000, rss: rssKb(pid) });
  sample();
  const sampler = setInterval(sample, 5_000);
  const long = await measure(baseUrl, scenario, LONG_SECONDS);
  clearInterval(sampler);
  sample();
  const edge = Math.min(60, LONG_SECONDS / 5);
  const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length);
  const firstMinute = mean(samples.filter((s) => s.t <= edge).map((s) => s.rss));
  const lastMinute = mean(samples.filter((s) => s.t >= samples.at(-1)!.t - edge).map((s) => s.rss));
  return { long, samples, firstMinute, lastMinute, edge };
}

/** (e)'s row and its RSS line. */
function renderMemory(memory: MemoryRun): string[] {
  const peak = Math.max(...memory.samples.map((s) => s.rss));
  return [
    `| (e) ${LONG_SECONDS} s of (a), app only | 50 | ${memory.long.rps.toFixed(0)} | ${ms(memory.long.p50)} | ${ms(memory.long.p99)} | | | | |`,
    "",
    `Server RSS during (e): start ${mb(memory.samples[0]!.rss)}, end ${mb(memory.samples.at(-1)!.rss)}, peak ${mb(peak)}; ` +
      `mean of the first ${memory.edge.toFixed(0)} s ${mb(memory.firstMinute)}, of the last ${memory.edge.toFixed(0)} s ${mb(memory.lastMinute)} ` +
      `(${(((memory.lastMinute - memory.firstMinute) / memory.firstMinute) * 100).toFixed(1)}%).`,
  ];
}

interface UploadedImage {
  id: string;
  variants: { url: string }[];
}

/** One image upload through the API: the photo as the body, the big account's key. */
async function uploadPhoto(baseUrl: string, photo: Buffer): Promise<UploadedImage> {
  const response = await fetch(`${baseUrl}/api/v1/images`, { method: "POST", body: new Uint8Array(photo), headers: { "x-api-key": data.big.key, "content-type": "image/jpeg" } });
  const answer = (await response.json()) as { data?: { image: UploadedImage } };
  // 200: the bytes were stored before (a reused bench database keeps the g1 photo).
  if (response.status > 201 || !answer.data) throw new Error(`the photo's upload answered ${response.status}: ${JSON.stringify(answer)}`);
  return answer.data.image;
}

/** Every variant of an uploaded image, once the job making them after the answer is done (docs/images.md). */
async function photoVariants(baseUrl: string, image: UploadedImage): Promise<{ url: string }[]> {
  await variantsMade();
  const response = await fetch(`${baseUrl}/api/v1/images/${image.id}`, { headers: { "x-api-key": data.big.key } });
  return ((await response.json()) as { data: { image: UploadedImage } }).data.image.variants;
}

/** Waits until no image's variants are left to make (graphile-worker's queue holds none of their jobs). */
async function variantsMade(): Promise<void> {
  for (;;) {
    const { rows } = await db.query<{ waiting: number }>(`SELECT count(*)::int AS "waiting" FROM graphile_worker.jobs WHERE task_identifier = 'image_variants'`);
    if (rows[0]!.waiting === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * (g2), idle: how long the photo's upload takes to answer with nothing else running (issue 36's
 * target: under 1.5 s median), each upload other bytes, the next sent once every job of the last
 * is done.
 */
async function idleUploads(baseUrl: string, photo: Buffer): Promise<number[]> {
  log(`(g2) ${IDLE_UPLOADS} uploads of the ${(photo.length / 1e6).toFixed(1)} MB JPEG one at a time, idle`);
  const latencies: number[] = [];
  for (let i = 0; i < IDLE_UPLOADS; i++) {
    await variantsMade();
    const at = performance.now();
    await uploadPhoto(baseUrl, markedPhoto(photo, `idle ${i}`));
    latencies.push(performance.now() - at);
  }
  await variantsMade();
  return latencies.sort((a, b) => a - b);
}

interface UploadRun {
  /** (g3): the event loop's delay while one process processes the photo three times, and idle as long (ms). */
  eventLoop: { processing: LoopDelay; idle: LoopDelay };
  /** Upload times of the photo on the idle server, one at a time, sorted (ms). */
  idle: number[];
  /** Uploads of the photo, back to back from UPLOADERS clients, while (a) runs. */
  uploads: number;
  uploadSeconds: number;
  uploadP50: number;
  uploadP99: number;
  alone: Measurement;
  during: Measurement;
}

interface LoopDelay {
  seconds: number;
  p50: number;
  p99: number;
  max: number;
}

/**
 * (g2): the photo uploaded back to back by UPLOADERS clients for SECONDS while (a) runs, against
 * (a) alone for as long, in alternating halves: whether uploads (sharp on libuv's threads) starve
 * the API's reads. The images are deleted afterwards.
 */
async function uploadRun(baseUrl: string, reads: Scenario, photo: Buffer): Promise<UploadRun> {
  const idle = await idleUploads(baseUrl, photo);
  log(`(g2) uploads of a ${(photo.length / 1e6).toFixed(1)} MB JPEG by ${UPLOADERS} clients, with (a) alongside and alone`);
  const latencies: number[] = [];
  let uploadSeconds = 0;
  const alone: Measurement[] = [];
  const during: Measurement[] = [];
  for (let half = 0; half < 2; half++) {
    alone.push(await measure(baseUrl, reads, SECONDS / 2));
    let uploading = true;
    const started = performance.now();
    const uploaders = Array.from({ length: UPLOADERS }, async () => {
      while (uploading) {
        const at = performance.now();
        await uploadPhoto(baseUrl, markedPhoto(photo, `busy ${latencies.length} ${Math.random()}`));
        latencies.push(performance.now() - at);
      }
    });
    during.push(await measure(baseUrl, reads, SECONDS / 2));
    uploading = false;
    await Promise.all(uploaders);
    uploadSeconds += (performance.now() - started) / 1000;
  }
  await db.query(`DELETE FROM "image" WHERE "userId" = $1`, [data.big.id]);
  log("(g3) the event loop's delay while the photo is processed, in a process of its own");
  const eventLoop = JSON.parse(execFileSync(process.execPath, ["--conditions=react-server", "--import", "tsx", "bench/image-event-loop.ts"], { encoding: "utf8" })) as UploadRun["eventLoop"];
  const sorted = latencies.sort((a, b) => a - b);
  const combine = (runs: Measurement[]): Measurement => ({
    rps: runs.reduce((sum, run) => sum + run.requests, 0) / SECONDS,
    p50: Math.max(...runs.map((run) => run.p50)),
    p99: Math.max(...runs.map((run) => run.p99)),
    requests: runs.reduce((sum, run) => sum + run.requests, 0),
    unexpected: runs.reduce((sum, run) => sum + run.unexpected, 0),
  });
  return {
    eventLoop,
    idle,
    uploads: sorted.length,
    uploadSeconds,
    uploadP50: sorted[Math.floor(sorted.length / 2)] ?? 0,
    uploadP99: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] ?? 0,
    alone: combine(alone),
    during: combine(during),
  };
}

function renderUploads(run: UploadRun): string[] {
  return [
    "",
    `(g2) A 12-megapixel 3 MB JPEG uploaded ${run.idle.length} times one at a time, idle: each ${(run.idle[Math.floor(run.idle.length / 2)]! / 1000).toFixed(2)} s median ` +
      `(${(run.idle[0]! / 1000).toFixed(2)}–${(run.idle.at(-1)! / 1000).toFixed(2)} s).`,
    "",
    `(g2) ${UPLOADERS} clients uploading a 3 MB JPEG back to back: ${run.uploads} uploads in ${run.uploadSeconds.toFixed(1)} s ` +
      `(${(run.uploads / run.uploadSeconds).toFixed(2)}/s), each ${(run.uploadP50 / 1000).toFixed(2)} s median, ${(run.uploadP99 / 1000).toFixed(2)} s p99.`,
    "",
    "| (a) measured | App req/s | App p50 ms | App p99 ms | During / alone req/s |",
    "|---|---:|---:|---:|---:|",
    `| alone | ${run.alone.rps.toFixed(0)} | ${ms(run.alone.p50)} | ${ms(run.alone.p99)} | |`,
    `| during uploads | ${run.during.rps.toFixed(0)} | ${ms(run.during.p50)} | ${ms(run.during.p99)} | ${(run.during.rps / run.alone.rps).toFixed(2)} |`,
    "",
    `(g3) Event loop delay (1 ms timer) while one process processes the photo 3 times in ${run.eventLoop.processing.seconds} s: ` +
      `p50 ${run.eventLoop.processing.p50} ms, p99 ${run.eventLoop.processing.p99} ms, max ${run.eventLoop.processing.max} ms; ` +
      `idle as long: p50 ${run.eventLoop.idle.p50} ms, p99 ${run.eventLoop.idle.p99} ms, max ${run.eventLoop.idle.max} ms.`,
  ];
}

function renderReport(
  results: Result[],
  memory: MemoryRun,
  checks: { totals: { variant: string; countStar: number; app: number }[]; exact: boolean; cursorMatches: boolean; sameBody: boolean },
  uploads: UploadRun,
): string {
  const lines = [
    renderTable(results),
    ...renderMemory(memory),
    `Totals (1M account) vs count(*): ${checks.totals.map((t) => `${t.variant} ${t.app} (count(*) ${t.countStar})`).join(", ")}: ${checks.exact ? "exact" : "MISMATCH"}.`,
    `Page 10,000 by cursor equals page 10,000 by number: ${checks.cursorMatches ? "yes" : "NO"}; app and baseline answers identical (body, ETag, header names): ${checks.sameBody ? "yes" : "NO"}.`,
    `Unexpected statuses: ${results.reduce((s, r) => s + r.app.unexpected + (r.baseline?.unexpected ?? 0), 0) + memory.long.unexpected}.`,
    ...renderUploads(uploads),
  ];
  return lines.join("\n");
}

function ms(x: number): string {
  return x.toFixed(x < 10 ? 2 : 1);
}

/** The machine, the settings and one row per scenario. */
function renderTable(results: Result[]): string {
  return [
    `Machine: ${cpus().length} × ${cpus()[0]?.model.trim()}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB; ${postgresVersion()}; Redis ${redisVersion()}; Node ${process.version}`,
    `Date: ${new Date().toISOString()}; ${SECONDS} s per scenario and server in ${ROUNDS} alternating bursts after ${WARMUP} s warm-up; pool ${POOL_SIZE} connections per server`,
    "",
    "Baseline: (a) to (d) bench/baseline.ts, the same work on bare node:http; (f) and (g1) the same bytes from memory on bare node:http (bench/bare-page-server.ts).",
    "",
    "| Scenario | Conn. | App req/s | App p50 ms | App p99 ms | Baseline req/s | Baseline p50 ms | Baseline p99 ms | App/baseline req/s |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...results.map(({ scenario, app, baseline }) =>
      `| ${scenario.title} | ${scenario.connections} | ${app.rps.toFixed(0)} | ${ms(app.p50)} | ${ms(app.p99)} | ` +
        `${baseline!.rps.toFixed(0)} | ${ms(baseline!.p50)} | ${ms(baseline!.p99)} | ${(app.rps / baseline!.rps).toFixed(2)} |`,
    ),
  ].join("\n");
}

/** The bytes and content type the app answers for each path to a client that accepts no compression (autocannon's requests). */
async function pageBytes(baseUrl: string, paths: string[]): Promise<Record<string, { contentType: string; body: string }>> {
  const pages: Record<string, { contentType: string; body: string }> = {};
  for (const path of paths) {
    const response = await fetch(baseUrl + path, { headers: { "accept-encoding": "identity" } });
    pages[path] = { contentType: response.headers.get("content-type") ?? "", body: Buffer.from(await response.arrayBuffer()).toString("base64") };
  }
  return pages;
}

/** Each public page answers 200 with its content before it is measured. */
async function checkPublicPages(baseUrl: string, blogPath: string, indexPath: string): Promise<void> {
  for (const [path, marker] of [[blogPath, "Section 24"], [indexPath, "Post 1000"]] as const) {
    const response = await fetch(baseUrl + path);
    const html = await response.text();
    if (response.status !== 200 || !html.includes(marker)) throw new Error(`${path} answered ${response.status} without "${marker}"`);
  }
}

function mb(kb: number): string {
  return `${(kb / 1024).toFixed(0)} MB`;
}

function rssKb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return Number(match?.[1] ?? 0);
}

/** The process that listens on `port`: the server under test, whatever launched it. */
function postgresVersion(): string {
  try {
    return execFileSync("psql", ["--version"], { encoding: "utf8" }).trim().replace(/^psql \(PostgreSQL\) /, "PostgreSQL ");
  } catch {
    return "PostgreSQL";
  }
}

function redisVersion(): string {
  try {
    return /redis_version:(\S+)/.exec(execFileSync("redis-cli", ["-u", REDIS_URL, "info", "server"], { encoding: "utf8" }))?.[1] ?? "";
  } catch {
    return "";
  }
}

async function waitForStatus(url: string, status: number): Promise<void> {
  for (let i = 0; i < 120; i++) {
    if (await fetch(url).then((r) => r.status === status, () => false)) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not answer`);
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: "inherit", env: { ...env, NEXT_TELEMETRY_DISABLED: "1" } });
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(" ")} exited with ${code}`))));
  });
}

export type { BenchData };
