/**
 * CPU per call of GET /blogs through each layer of the app, in one process, with a stub pool that
 * answers every query with the same ten rows (no database, no network): what the framework costs
 * on its own, measured without the noise of a loaded machine (bench/README.md, "Where the app's time goes").
 *
 *   list       listBlogs and JSON.stringify: the work the baseline does too
 *   procedure  blogs.list through tRPC (its middleware, zod input and output), as the dashboard calls it
 *   openapi    blogs.list routed (src/server/api/rest/routes.ts) and called through /api/v1's adapter (openapi-adapter.ts: trpc-to-openapi's input)
 *
 * Run: npx tsx --conditions=react-server bench/layers.ts   (LAYER_CALLS, default 20000 a layer and round)
 */
import { PerformanceObserver } from "node:perf_hooks";
import { appRouter } from "~/server/api/root";
import { createOpenApiAdapter } from "~/server/api/rest/openapi-adapter";
import { matchRoute } from "~/server/api/rest/routes";
import type { Context, RequestContextOptions } from "~/server/api/trpc";
import { listBlogs } from "~/server/blogs/list-blogs";
import type { SqlPool } from "~/server/db";

const CALLS = Number(process.env.LAYER_CALLS ?? 20_000);
const now = new Date();
const iso = now.toISOString();
// Rows as the list statement gives them (src/server/blogs/list-blogs-sql.ts): the blog as blog_api_view builds it.
const rows = Array.from({ length: 10 }, (_, i) => ({
  total: 1000,
  id: `cmbench${String(i).padStart(18, "0")}`,
  sortKey: now,
  blog: {
    id: `cmbench${String(i).padStart(18, "0")}`,
    title: `Blog number ${i}`,
    blogSlug: `blog-number-${i}`,
    description: "A short description",
    content: "Some Markdown content. ".repeat(20),
    isPublic: i % 2 === 0,
    allowApiAccess: true,
    seoTitle: "",
    seoDescription: "",
    tags: ["Next.js", "Databases"],
    coverImage: null,
    status: i % 2 === 0 ? "published" : "draft",
    publishAt: null,
    publishedAt: i % 2 === 0 ? iso : null,
    createdAt: iso,
    updatedAt: iso,
  },
}));
const sql = { query: () => Promise.resolve({ rows }) } as unknown as SqlPool;
const scope = { accountId: "cmbenchaccount", apiAccessOnly: true };
const contextOptions = (): RequestContextOptions => ({
  headers: new Headers(),
  url: new URL("http://localhost/api/v1/blogs?limit=10"),
  resHeaders: new Headers(),
  afterResponse: () => {},
  caller: { kind: "apiKey", key: { id: "cmbenchkey", name: "bench", accountId: scope.accountId, plan: "enterprise", permissions: ["read:blogs"], lastUsedAt: now } },
});
const context = (options: RequestContextOptions) => ({ db: undefined, sql, ...options }) as unknown as Context;
const callOpenApi = createOpenApiAdapter({ createContext: context });
const url = new URL("http://localhost/api/v1/blogs?limit=10");

const layers: Record<string, () => Promise<unknown>> = {
  list: async () => JSON.stringify({ success: true, data: await listBlogs(sql, scope, { page: 1, limit: 10 }) }),
  procedure: async () => JSON.stringify(await appRouter.createCaller(context(contextOptions())).blogs.list({ limit: "10" } as never)),
  openapi: async () => {
    const match = matchRoute("GET", "/blogs");
    if (!match || !("route" in match)) throw new Error("GET /blogs is not routed");
    const { route, pathInput } = match;
    const outcome = await callOpenApi({ procedure: route.procedure!, pathInput, method: "GET", url, body: undefined, contextOptions: contextOptions() });
    if (!outcome.ok) throw outcome.error;
    return outcome.body;
  },
};

// Young-generation collections a call: with a fixed semi-space (run with --max-semi-space-size),
// what each layer allocates, in proportion.
let scavenges = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) if ((entry as unknown as { detail?: { kind?: number } }).detail?.kind === 1) scavenges++;
}).observe({ entryTypes: ["gc"] });

// The first round warms the JIT; the second is reported.
for (const round of [1, 2]) {
  for (const [name, call] of Object.entries(layers)) {
    scavenges = 0;
    const start = process.cpuUsage();
    for (let i = 0; i < CALLS; i++) await call();
    const { user, system } = process.cpuUsage(start);
    await new Promise((resolve) => setImmediate(resolve));
    if (round === 2) console.log(`${name.padEnd(10)} ${((user + system) / CALLS).toFixed(1).padStart(6)} µs CPU a call, ${((1000 * scavenges) / CALLS).toFixed(2)} scavenges a 1,000 calls`);
  }
}
