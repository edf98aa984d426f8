/**
 * `npm run bench:search`: public search (docs/public-blog.md, Search) over one publication of
 * SEARCH_BLOGS public blogs, in its own database (BENCH_SEARCH_DATABASE, default
 * blogmgr_bench_search, on DATABASE_URL's server), seeded once with generate_series and reused
 * while its shape is unchanged. Each query is what a search page's miss costs in the database: the
 * search statement (ids from the index, then ts_headline on the page's rows), run one at a time (BENCH_SEARCH_RUNS times, default 200, after 20 unmeasured), timed as p50, p95
 * and p99; then EXPLAIN ANALYZE of each statement. bench/README.md, Search, has the figures.
 */
import { performance } from "node:perf_hooks";
import { insertAccount } from "../scripts/lib/seed-account";
import pg from "pg";
import { applyMigrations } from "~/server/db/migrate";
import { searchPublicBlogs, searchPublicBlogsSql, searchWords } from "~/server/blogs/search-public-blogs";

const SEARCH_BLOGS = 50_000;
const SHAPE = `search-v1:${SEARCH_BLOGS}`;
const OWNER_ID = "bench_search";
const HANDLE = "bench-search";
const RUNS = Number(process.env.BENCH_SEARCH_RUNS ?? 200);
const WARMUP = 20;
const serverUrl = process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const database = process.env.BENCH_SEARCH_DATABASE ?? "blogmgr_bench_search";

/** About 3 KB of Markdown every blog shares: its words are the common ones. */
const BODY = Array.from(
  { length: 6 },
  (_, n) => `## Part ${n + 1}

Lorem ipsum dolor sit amet, **consectetur** adipiscing elit, sed do *eiusmod* tempor incididunt ut labore
et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud [exercitation](https://example.com/${n})
ullamco laboris nisi ut aliquip ex ea commodo consequat, with \`inline code\` and a database index.

- first point, about postgres and its planner
- second point, with a [link](https://example.com/a/${n})
`,
).join("\n");

/** The queries measured: what each finds among the 50,000 blogs. */
const QUERIES: { name: string; q: string }[] = [
  { name: "common word (every blog)", q: "lorem" },
  { name: "common prefix (every blog, many words)", q: "p" },
  { name: "rare word (10 blogs, in the content)", q: "kestrel" },
  { name: "two words (5,000 ∩ every blog)", q: "quokka planner" },
  { name: "tag (2,500 blogs)", q: "topic-7" },
  { name: "no match", q: "zyzzyva" },
];

const log = (line: string) => console.log(`[bench:search] ${line}`);

async function databaseUrl(): Promise<string> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    const exists = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [database]);
    if (exists.rowCount === 0) await admin.query(`CREATE DATABASE "${database}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/**
 * One account with SEARCH_BLOGS public blogs, an hour apart: every one has the common words; one in
 * ten "quokka" in its description, one in 5,000 "kestrel" in its content; tags topic-0 … topic-19.
 */
async function seed(client: pg.Client): Promise<void> {
  await client.query(`CREATE TABLE IF NOT EXISTS "bench_search_meta" ("shape" text NOT NULL)`);
  const meta = await client.query<{ shape: string }>(`SELECT "shape" FROM "bench_search_meta"`);
  if (meta.rows[0]?.shape === SHAPE) return;
  const started = Date.now();
  await client.query(`DELETE FROM "bench_search_meta"`);
  await insertAccount(client, { id: OWNER_ID, name: "Bench Search", email: "search@bench.example", handle: HANDLE, plan: "free" });
  await client.query(
    `INSERT INTO "blog" ("id", "userId", "title", "blogSlug", "description", "content", "tags", "isPublic", "createdAt", "updatedAt")
     SELECT 'bs_' || g, $1, 'Notes number ' || g, 'notes-' || g,
            CASE WHEN g % 10 = 0 THEN 'A quokka on the database' ELSE 'Some notes on the database' END,
            $2 || E'\\n\\nClosing words ' || g || CASE WHEN g % 5000 = 0 THEN ' with a kestrel.' ELSE '.' END,
            ARRAY['topic-' || (g % 20), 'notes'], true,
            timestamptz '2020-01-01 00:00:00+00' + g * interval '1 hour', timestamptz '2020-01-01 00:00:00+00' + g * interval '1 hour'
     FROM generate_series(1, ${SEARCH_BLOGS}) AS g`,
    [OWNER_ID, BODY],
  );
  await client.query(`VACUUM (ANALYZE) "blog"`);
  await client.query(`INSERT INTO "bench_search_meta" ("shape") VALUES ($1)`, [SHAPE]);
  log(`seeded ${SEARCH_BLOGS} blogs in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

const url = await databaseUrl();
const { applied } = await applyMigrations(url);
if (applied.length) log(`applied migrations: ${applied.join(", ")}`);
const client = new pg.Client({ connectionString: url });
await client.connect();
const pool = new pg.Pool({ connectionString: url, max: 1 });
try {
  await seed(client);
  const rows: string[] = ["| Query | q | Results on page 1 | p50 | p95 | p99 |", "|---|---|---:|---:|---:|---:|"];
  const plans: string[] = [];
  for (const { name, q } of QUERIES) {
    const times: number[] = [];
    let found = 0;
    for (let run = 0; run < WARMUP + RUNS; run++) {
      const started = performance.now();
      const { results } = await searchPublicBlogs(pool, OWNER_ID, q, 1);
      if (run >= WARMUP) times.push(performance.now() - started);
      found = results.length;
    }
    times.sort((a, b) => a - b);
    const ms = (p: number) => `${percentile(times, p).toFixed(1)} ms`;
    rows.push(`| ${name} | \`${q}\` | ${found} | ${ms(50)} | ${ms(95)} | ${ms(99)} |`);
    const { text, values } = searchPublicBlogsSql(OWNER_ID, q, searchWords(q), 1);
    const plan = await client.query<{ "QUERY PLAN": string }>(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, SUMMARY ON) ${text}`, values);
    plans.push(`#### ${name}: \`${q}\`\n\n\`\`\`\n${plan.rows.map((row) => row["QUERY PLAN"]).join("\n")}\n\`\`\`\n`);
  }
  const version = await client.query<{ server_version: string }>("SHOW server_version");
  console.log(`\nPostgreSQL ${version.rows[0]!.server_version}, ${SEARCH_BLOGS} public blogs of one account, ${RUNS} runs a query, one at a time\n`);
  console.log(rows.join("\n"));
  console.log(`\n${plans.join("\n")}`);
} finally {
  await pool.end();
  await client.end();
}
