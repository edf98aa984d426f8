import pg from "pg";
import { hashApiKey } from "~/server/keys/api-key";
import { listBlogsSql } from "~/server/blogs/list-blogs-sql";
import { API_KEY_LOOKUP_SQL } from "~/server/keys/key-sql";
import { parseBlogSort } from "~/shared/blog-sort";
import { benchKey } from "./seed";
/** EXPLAIN ANALYZE of the hot path's statements on the seeded bench database (run `npm run bench` once first). */
const url = new URL(process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres");
url.pathname = `/${process.env.BENCH_DATABASE ?? "blogmgr_bench"}`;
const c = new pg.Client({ connectionString: url.toString() });
await c.connect();
const year = { from: new Date("2024-01-01"), to: new Date("2024-12-31") };
// the cursor of page 10,000: last row of page 9,999
const ids = await c.query<{ createdAt: Date; id: string }>(`SELECT "createdAt", id FROM blog WHERE "userId"='bench_big' AND "allowApiAccess" ORDER BY "createdAt" DESC, id DESC OFFSET 499949 LIMIT 1`);
const after = { key: ids.rows[0]!.createdAt.toISOString(), id: ids.rows[0]!.id };
const byTitle = await c.query<{ title: string; id: string }>(`SELECT title, id FROM blog WHERE "userId"='bench_big' AND "allowApiAccess" ORDER BY title, id OFFSET 499949 LIMIT 1`);
const titleAfter = { key: byTitle.rows[0]!.title, id: byTitle.rows[0]!.id };
const lastPublished = await c.query<{ publishedAt: Date; id: string }>(`SELECT "publishedAt", id FROM blog WHERE "userId"='bench_big' AND "allowApiAccess" AND "publishedAt" IS NOT NULL ORDER BY "publishedAt" DESC, id DESC LIMIT 1`);
const publishedAfter = { key: lastPublished.rows[0]!.publishedAt.toISOString(), id: lastPublished.rows[0]!.id };
const variants: [string, Parameters<typeof listBlogsSql>[0]][] = [
  ["(a) small account, page 1, limit 10", { accountId: "bench_small01", apiAccessOnly: true, limit: 10, offset: 0 }],
  ["(b) 1M, page 1, limit 50", { accountId: "bench_big", apiAccessOnly: true, limit: 50, offset: 0 }],
  ["(b) 1M, public=true", { accountId: "bench_big", apiAccessOnly: true, limit: 50, offset: 0, public: true }],
  ["(b) 1M, from/to one year", { accountId: "bench_big", apiAccessOnly: true, limit: 50, offset: 0, ...year }],
  ["(b) 1M, public=true + from/to", { accountId: "bench_big", apiAccessOnly: true, limit: 50, offset: 0, public: true, ...year }],
  ["(c) 1M, page 10,000 by number", { accountId: "bench_big", apiAccessOnly: true, limit: 50, offset: 499950 }],
  ["(c) 1M, page 10,000 by cursor", { accountId: "bench_big", apiAccessOnly: true, limit: 50, offset: 0, after }],
  // Publishing's filters and sorts (docs/api.md, listing): one index per sort, read either way.
  ["(b) 1M, status=draft", { accountId: "bench_big", apiAccessOnly: true, limit: 50, offset: 0, status: "draft" }],
  ["(b) 1M, tag=topic-7", { accountId: "bench_big", apiAccessOnly: true, limit: 50, offset: 0, tag: "topic-7" }],
  ...(["title", "-title", "publishedAt", "-publishedAt", "updatedAt", "-updatedAt", "createdAt"] as const).map(
    (name): [string, Parameters<typeof listBlogsSql>[0]] => [`(b) 1M, sort=${name}`, { accountId: "bench_big", apiAccessOnly: true, limit: 50, offset: 0, sort: parseBlogSort(name) }],
  ),
  ["(b) 1M, sort=title, page 10,000 by cursor", { accountId: "bench_big", apiAccessOnly: true, limit: 50, offset: 0, sort: parseBlogSort("title"), after: titleAfter }],
  ["(b) 1M, sort=publishedAt, past the last date by cursor", { accountId: "bench_big", apiAccessOnly: true, limit: 50, offset: 0, sort: parseBlogSort("publishedAt"), after: publishedAfter }],
];
for (const [name, q] of variants) {
  const { text, values } = listBlogsSql(q);
  const r = await c.query(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, SUMMARY ON) ${text}`, values);
  console.log(`#### ${name}\n\n\`\`\`sql\n${text}\n\`\`\`\n\n\`\`\`\n${r.rows.map((x: Record<string, string>) => x["QUERY PLAN"]).join("\n")}\n\`\`\`\n`);
}
// The app sends the list (but with a tag or a search) and the key lookup as prepared statements
// (src/server/db/prepared-statement.ts): once PostgreSQL settles on a generic plan, this is it
// (for page 1 and the cursor pages; the other shapes' generic plans are alike).
await c.query("SET plan_cache_mode = force_generic_plan");
for (const [name, q] of variants.filter(([name]) => /^\(a\)|page 1, limit 50|by cursor/.test(name))) {
  const { text, values } = listBlogsSql(q);
  await c.query(`PREPARE generic AS ${text}`);
  const args = values.map((value) => (typeof value === "string" ? c.escapeLiteral(value) : String(value))).join(", ");
  const r = await c.query(`EXPLAIN (ANALYZE, COSTS OFF, SUMMARY ON) EXECUTE generic(${args})`);
  await c.query("DEALLOCATE generic");
  console.log(`#### generic plan: ${name}\n\n\`\`\`\n${r.rows.map((x: Record<string, string>) => x["QUERY PLAN"]).join("\n")}\n\`\`\`\n`);
}
await c.query("RESET plan_cache_mode");
const k = await c.query(`EXPLAIN (ANALYZE, COSTS OFF) ${API_KEY_LOOKUP_SQL}`, [hashApiKey(benchKey("big"))]);
console.log(`#### key lookup\n\n\`\`\`\n${k.rows.map((x: Record<string, string>) => x["QUERY PLAN"]).join("\n")}\n\`\`\`\n`);
await c.end();
