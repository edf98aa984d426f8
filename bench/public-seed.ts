/**
 * The public pages' benchmark data, in the bench database beside the API's: one account
 * (`bench-public`) with PUBLIC_BLOGS public blogs, each with a realistically long Markdown body
 * (about 20 KB: headings, paragraphs, lists, a table, code blocks). Seeded once with one
 * set-based INSERT and reused while its shape is unchanged, independently of the API's data.
 */
import type pg from "pg";
import { insertAccount } from "../scripts/lib/seed-account";

export const PUBLIC_HANDLE = "bench-public";
export const PUBLIC_BLOGS = 1_000;
const PUBLIC_ID = "bench_public";
const SHAPE = `public-v1:${PUBLIC_BLOGS}`;

/** About 20 KB of Markdown with the constructs a real post has. */
export function longMarkdown(): string {
  const section = (n: number) => `## Section ${n}

Lorem ipsum dolor sit amet, **consectetur** adipiscing elit, sed do *eiusmod* tempor incididunt ut
labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud [exercitation](https://example.com/${n})
ullamco laboris nisi ut aliquip ex ea commodo consequat, with \`inline code\` and ~~struck~~ text.

- first point of section ${n}
- second point, with a [link](https://example.com/a/${n})
  - a nested point
- [x] a task done
- [ ] a task to do

1. one
2. two
3. three

| Column | Value | Note |
|---|---:|---|
| alpha | ${n} | the first row |
| beta | ${n * 2} | the second row |
| gamma | ${n * 3} | the third row |

\`\`\`ts
export function section${n}(input: number[]): number {
  return input.filter((x) => x > ${n}).reduce((sum, x) => sum + x, 0);
}
\`\`\`

> A quotation closing section ${n}, long enough to wrap over a line or two in the page's column.
`;
  return `# A long post\n\n${Array.from({ length: 24 }, (_, i) => section(i + 1)).join("\n")}`;
}

/** Seeds (or finds) the public account; returns its handle and the slug of one of its blogs. */
export async function seedPublicPages(client: pg.Client, log: (line: string) => void): Promise<{ handle: string; blogSlug: string }> {
  const found = { handle: PUBLIC_HANDLE, blogSlug: "post-1" };
  await client.query(`CREATE TABLE IF NOT EXISTS "bench_public_meta" ("shape" text NOT NULL)`);
  const meta = await client.query<{ shape: string }>(`SELECT "shape" FROM "bench_public_meta"`);
  if (meta.rows[0]?.shape === SHAPE) return found;
  const started = Date.now();
  await client.query(`DELETE FROM "bench_public_meta"`);
  await insertAccount(client, { id: PUBLIC_ID, name: "Bench Public", email: "public@bench.example", handle: PUBLIC_HANDLE, plan: "free" });
  await client.query(
    `INSERT INTO "blog" ("id", "userId", "title", "blogSlug", "description", "content", "isPublic", "allowApiAccess", "createdAt", "updatedAt")
     SELECT 'bp_' || g, $1, 'Post ' || g, 'post-' || g, 'Description of post ' || g, $2, true, true,
            timestamptz '2025-01-01 00:00:00+00' + g * interval '1 hour', timestamptz '2025-01-01 00:00:00+00' + g * interval '1 hour'
     FROM generate_series(1, ${PUBLIC_BLOGS}) AS g`,
    [PUBLIC_ID, longMarkdown()],
  );
  await client.query(`VACUUM (ANALYZE) "blog"`);
  await client.query(`INSERT INTO "bench_public_meta" ("shape") VALUES ($1)`, [SHAPE]);
  log(`public pages seeded in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return found;
}
