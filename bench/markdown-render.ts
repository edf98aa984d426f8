/**
 * Render time of a post's Markdown (docs/public-blog.md, Reading): a 20 KB post with five code
 * blocks, rendered as its public page renders it, after a warm-up. `npx tsx --conditions=react-server bench/markdown-render.ts`.
 */
import { performance } from "node:perf_hooks";
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
export function samplePost(): string {
  const parts: string[] = [];
  for (let section = 0; parts.join("\n\n").length < 20_000; section++) {
    parts.push(`## Section ${section + 1}`, paragraph.repeat(6), `- one item\n- another item with \`inline code\``);
    const block = CODE_BLOCKS[section];
    if (block) parts.push(`\`\`\`${block[0]}\n${block[1]}\n\`\`\``);
  }
  return parts.join("\n\n");
}

const source = samplePost();
const render = () => articleHtml(source, { origin: "https://blog.example", imagesWithPendingVariants: [] });
for (let i = 0; i < 20; i++) render();
const runs = 200;
const times: number[] = [];
for (let i = 0; i < runs; i++) {
  const start = performance.now();
  render();
  times.push(performance.now() - start);
}
times.sort((a, b) => a - b);
const at = (q: number) => times[Math.min(runs - 1, Math.floor(q * runs))]!.toFixed(2);
console.log(`${(source.length / 1024).toFixed(1)} KiB of Markdown, ${runs} renders: median ${at(0.5)} ms, p90 ${at(0.9)} ms, max ${at(1)} ms; HTML ${(render().length / 1024).toFixed(1)} KiB`);
