/**
 * (f)'s and (g1)'s baseline (bench/README.md): a bare node:http server answering each page or file with the
 * very bytes and content type the app served for it, from memory, with nothing else to do. The
 * pages come as JSON in BENCH_PAGES_FILE: { "/path": { "contentType": "...", "body": base64 } }.
 */
import { readFileSync } from "node:fs";
import { createServer } from "node:http";

const stored = JSON.parse(readFileSync(process.env.BENCH_PAGES_FILE!, "utf8")) as Record<string, { contentType: string; body: string }>;
const pages = new Map(Object.entries(stored).map(([path, page]) => [path, { contentType: page.contentType, body: Buffer.from(page.body, "base64") }]));

createServer((req, res) => {
  const page = pages.get(req.url ?? "");
  if (!page) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { "Content-Type": page.contentType, "Content-Length": page.body.length });
  res.end(page.body);
}).listen(Number(process.env.PORT), "127.0.0.1");
