/**
 * Render time of a post's Markdown (docs/public-blog.md, Reading): a 20 KB post with five code
 * blocks, rendered plain (as feeds do, and pages did before highlighting) and as its public page
 * renders it, alternately, after a warm-up; and the first page render, which compiles the grammars
 * it uses, checked to be the same as the later ones (no line left plain by Shiki's time limit).
 * `npx tsx --conditions=react-server bench/markdown-render.ts`.
 */
import { performance } from "node:perf_hooks";
import { markdownToHtml } from "~/lib/markdown";
import { articleHtml } from "~/server/public-site/article-html";

const CODE_BLOCKS = [
  ["ts", "export async function load(id: string): Promise<Post | null> {\n  const row = await db.post.findUnique({ where: { id } });\n  return row && { ...row, tags: row.tags.map((tag) => tag.name) };\n}"],
  ["bash", "#!/usr/bin/env bash\nset -euo pipefail\nfor file in *.md; do\n  echo \"rendering $file\"\n  npx render \"$file\" > \"${file%.md}.html\"\ndone"],
  ["python", "def fib(n: int) -> int:\n    a, b = 0, 1\n    for _ in range(n):\n        a, b = b, a + b\n    return a\n\nprint([fib(i) for i in range(10)])"],
  ["json", '{\n  "name": "blog",\n  "version": "1.0.0",\n  "scripts": { "build": "next build", "start": "next start" },\n  "private": true\n}'],
  ["css", ":root { color-scheme: light dark; }\n.post pre { overflow-x: auto; padding: 1rem; }\n@media (prefers-color-scheme: dark) { body { background: #0b1120; } }"],
] as const;

const paragraph = "Readers come back to a publication whose pages load at once and read well: a measured column, **sharp images**, _highlighted code_ and [links](https://example.com) that say where they go. ";

/** About 20 KB of Markdown: sections of prose, each with a code block until five are in. */
function samplePost(): string {
  const parts: string[] = [];
  for (let section = 0; parts.join("\n\n").length < 20_000; section++) {
    parts.push(`## Section ${section + 1}`, paragraph.repeat(6), `- one item\n- another item with \`inline code\``);
    const block = CODE_BLOCKS[section];
    if (block) parts.push(`\`\`\`${block[0]}\n${block[1]}\n\`\`\``);
  }
  return parts.join("\n\n");
}

const source = samplePost();
const options = { origin: "https://blog.example", imagesWithPendingVariants: [] };
/** As the post page rendered before code highlighting and anchors (the feeds' rendering still), and as it does now. */
const renders = { plain: () => markdownToHtml(source, options), page: () => articleHtml(source, options) };

const loadStart = performance.now();
const first = renders.page();
console.log(`First page render (grammars compiled on first use): ${(performance.now() - loadStart).toFixed(0)} ms`);
for (let i = 0; i < 20; i++) Object.values(renders).forEach((render) => render());

const RUNS = Number(process.env.RUNS ?? 200);
const times = { plain: [] as number[], page: [] as number[] };
// Alternating, so a busy machine weighs on both alike.
for (let i = 0; i < RUNS; i++) {
  for (const [name, render] of Object.entries(renders) as [keyof typeof renders, () => string][]) {
    const start = performance.now();
    render();
    times[name].push(performance.now() - start);
  }
}
const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))]!.toFixed(2);
console.log(`${(source.length / 1024).toFixed(1)} KiB of Markdown, ${CODE_BLOCKS.length} code blocks, ${RUNS} renders each:`);
for (const name of ["plain", "page"] as const) {
  const html = renders[name]();
  console.log(`  ${name}: median ${quantile(times[name], 0.5)} ms, p90 ${quantile(times[name], 0.9)} ms; HTML ${(html.length / 1024).toFixed(1)} KiB`);
}
if (first !== renders.page()) throw new Error("The first render differs from the later ones");
