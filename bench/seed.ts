/**
 * The benchmark's data: a dedicated database (default `blogmgr_bench` on DATABASE_URL's server)
 * with 50 enterprise accounts of 1,000 blogs, one enterprise account of 1,000,000 blogs over three
 * years, and one enterprise account whose budget the bench exhausts (for the 429 scenario).
 * Seeding is set-based SQL (generate_series), so the blog table's triggers maintain the per-day
 * counters exactly as for any other writer. A database already seeded with the same shape is reused.
 *
 * Keys are derived deterministically from the account (never stored in clear): reruns find them
 * again without keeping the keys anywhere; only their SHA-256 hashes are in api_key.
 */
import { createHash } from "node:crypto";
import { insertAccount } from "../scripts/lib/seed-account";
import pg from "pg";
import { hashApiKey } from "~/server/keys/api-key";
import { applyMigrations } from "~/server/db/migrate";

export const SMALL_ACCOUNTS = 50;
export const SMALL_BLOGS = 1_000;
export const BIG_BLOGS = 1_000_000;
/** Bump when the seeded data changes, so that an older bench database is seeded again. */
const SHAPE = `v2:${SMALL_ACCOUNTS}x${SMALL_BLOGS}+${BIG_BLOGS}`;
/** The big account's blogs are spread over these three years. */
export const BIG_FROM = "2023-01-01";
export const BIG_TO = "2025-12-31";

export interface BenchAccount {
  id: string;
  key: string;
}

export interface BenchData {
  url: string;
  small: BenchAccount[];
  big: BenchAccount;
  exhausted: BenchAccount;
}

/** A valid-looking key (bm_ + 64 of [a-z0-9]) derived from a name. */
export function benchKey(name: string): string {
  const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
  const bytes = Buffer.concat([0, 1].map((i) => createHash("sha256").update(`blogmgr-bench:${name}:${i}`).digest()));
  return "bm_" + [...bytes].map((b) => alphabet[b % 36]).join("");
}

const accountId = (name: string) => `bench_${name}`;

export async function seedBenchDatabase(serverUrl: string, database: string, log: (line: string) => void): Promise<BenchData> {
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
  const dbUrl = url.toString();

  const { applied } = await applyMigrations(dbUrl);
  if (applied.length) log(`applied migrations: ${applied.join(", ")}`);

  const names = [...Array.from({ length: SMALL_ACCOUNTS }, (_, i) => `small${String(i + 1).padStart(2, "0")}`), "big", "exhausted"];
  const data: BenchData = {
    url: dbUrl,
    small: names.slice(0, SMALL_ACCOUNTS).map((name) => ({ id: accountId(name), key: benchKey(name) })),
    big: { id: accountId("big"), key: benchKey("big") },
    exhausted: { id: accountId("exhausted"), key: benchKey("exhausted") },
  };

  const client = new pg.Client({ connectionString: dbUrl });
  await client.connect();
  try {
    await client.query(`CREATE TABLE IF NOT EXISTS "bench_meta" ("shape" text NOT NULL)`);
    const meta = await client.query<{ shape: string }>(`SELECT "shape" FROM "bench_meta"`);
    if (meta.rows[0]?.shape === SHAPE) {
      log(`reusing ${database} (already seeded: ${SHAPE})`);
      return data;
    }
    log(`seeding ${database} (${SHAPE}); a few minutes the first time`);
    const started = Date.now();
    await client.query(`DELETE FROM "bench_meta"`);
    await client.query(`DELETE FROM "organization" WHERE "id" LIKE 'bench\\_%'`);
    await client.query(`DELETE FROM "user" WHERE "id" LIKE 'bench\\_%'`);
    for (const name of names) {
      const id = accountId(name);
      await insertAccount(client, { id, name: `Bench ${name}`, email: `${name}@bench.example`, handle: `bench-${name}`, plan: "enterprise" });
      const key = benchKey(name);
      await client.query(
        `INSERT INTO "api_key" ("id", "userId", "name", "keyHash", "keyPrefix", "keySuffix", "permissions")
         VALUES ($1, $2, 'bench', $3, $4, $5, ARRAY['read:blogs','write:blogs','delete:blogs','read:analytics'])`,
        [`benchkey_${name}`, id, hashApiKey(key), key.slice(0, 7), key.slice(-4)],
      );
    }
    // Small accounts: 1,000 blogs each over three years; ~90% with API access, ~half public.
    await client.query(`
      INSERT INTO "blog" ("id", "userId", "title", "blogSlug", "description", "content", "isPublic", "allowApiAccess", "seoTitle", "seoDescription", "createdAt", "updatedAt")
      SELECT 'bs' || a || '_' || g, 'bench_small' || lpad(a::text, 2, '0'), 'Post ' || g, 'post-' || g,
             'Description of post ' || g, repeat('Lorem ipsum dolor sit amet. ', 10), (g * 7) % 2 = 0, (g * 13) % 10 <> 0,
             'SEO title ' || g, 'SEO description ' || g,
             timestamptz '${BIG_FROM} 00:00:00+00' + (g * interval '94608 seconds') + ((g * 7919) % 1000) * interval '1 millisecond',
             timestamptz '${BIG_FROM} 00:00:00+00' + (g * interval '94608 seconds')
      FROM generate_series(1, ${SMALL_ACCOUNTS}) AS a, generate_series(1, ${SMALL_BLOGS}) AS g`);
    log(`small accounts seeded in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    // The big account: 1,000,000 blogs evenly over 2023-01-01..2025-12-31 (one every ~94.6 s),
    // ~90% with API access, ~a third public, one of 50 tags each.
    const span = (Date.parse(`${BIG_TO}T23:59:59Z`) - Date.parse(`${BIG_FROM}T00:00:00Z`)) / BIG_BLOGS;
    await client.query(`
      INSERT INTO "blog" ("id", "userId", "title", "blogSlug", "description", "content", "isPublic", "allowApiAccess", "seoTitle", "seoDescription", "tags", "createdAt", "updatedAt")
      SELECT 'bb_' || lpad(g::text, 7, '0'), 'bench_big', 'Post ' || g, 'post-' || g,
             'Description of post ' || g, repeat('Lorem ipsum dolor sit amet. ', 10), (g * 7919) % 3 = 0, (g * 104729) % 10 <> 0,
             'SEO title ' || g, 'SEO description ' || g, ARRAY['Topic ' || (g % 50)],
             timestamptz '${BIG_FROM} 00:00:00+00' + ((g - 1) * ${Math.floor(span)}) * interval '1 millisecond',
             timestamptz '${BIG_FROM} 00:00:00+00' + ((g - 1) * ${Math.floor(span)}) * interval '1 millisecond'
      FROM generate_series(1::bigint, ${BIG_BLOGS}) AS g`);
    log(`big account seeded in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    await client.query(`VACUUM (ANALYZE) "blog"`);
    await client.query(`VACUUM (ANALYZE) "blog_day_count"`);
    await client.query(`INSERT INTO "bench_meta" ("shape") VALUES ($1)`, [SHAPE]);
    log(`seeded in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    return data;
  } finally {
    await client.end();
  }
}
