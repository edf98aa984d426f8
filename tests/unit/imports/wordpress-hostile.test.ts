import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { describe, expect, it } from "vitest";
import { ImportFileError } from "~/server/imports/source";
import { openWordPressExport } from "~/server/imports/wordpress/read";
import { WXR_TAIL, wxrDocument, wxrHead } from "../../../bench/wxr";
import { tempDirMaker } from "../../support/temp-dir";

/**
 * Hostile and broken files given as WordPress exports (docs/migrating.md, Hostile files): each is
 * refused with an ImportFileError (the import fails with its message), at once, never a crash nor
 * an expansion of what a DTD declares.
 */

const makeTempDir = tempDirMaker("imports-wordpress-hostile-");

async function fileWith(text: string): Promise<string> {
  const path = join(await makeTempDir(), "export.xml");
  await writeFile(path, text);
  return path;
}

async function refusal(text: string): Promise<ImportFileError> {
  const error = await openWordPressExport(await fileWith(text)).then(
    () => null,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(ImportFileError);
  return error as ImportFileError;
}

const WP_NAMESPACE = 'xmlns:wp="http://wordpress.org/export/1.2/"';

describe("a WordPress export that is hostile", () => {
  it("refuses billion laughs at once, without expanding it", async () => {
    const entities = Array.from({ length: 9 }, (_, index) => `<!ENTITY lol${index + 1} "${`&lol${index};`.repeat(10)}">`).join("\n");
    const text = `<?xml version="1.0"?>\n<!DOCTYPE rss [\n<!ENTITY lol0 "lol">\n${entities}\n]>\n<rss ${WP_NAMESPACE}><channel><title>&lol9;</title></channel></rss>`;
    const heapBefore = process.memoryUsage().heapUsed;
    const start = performance.now();
    const error = await refusal(text);
    expect(performance.now() - start).toBeLessThan(250);
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(32 * 1024 * 1024);
    expect(error.message).toContain("declares a DTD");
  });

  it("refuses an external entity without reading what it names", async () => {
    const error = await refusal(`<?xml version="1.0"?>\n<!DOCTYPE rss [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n<rss ${WP_NAMESPACE}><channel><title>&xxe;</title></channel></rss>`);
    expect(error.message).toContain("declares a DTD");
    expect(error.message).not.toContain("root:");
  });

  it("refuses a DOCTYPE alone, and one after a comment longer than a read chunk", async () => {
    await refusal(`<?xml version="1.0"?>\n<!DOCTYPE rss>\n${wxrDocument([]).replace(/^<\?xml[^>]*>\n/, "")}`);
    const error = await refusal(`<?xml version="1.0"?>\n<!--${"x".repeat(65_530)}-->\n<!DOCTYPE rss SYSTEM "http://attacker.example/x.dtd">\n${wxrDocument([]).replace(/^<\?xml[^>]*>\n/, "")}`);
    expect(error.message).toContain("declares a DTD");
  });

  it("refuses an entity XML does not define", async () => {
    const error = await refusal(`${wxrHead()}<item><title>Caf&eacute;</title></item>${WXR_TAIL}`);
    expect(error.message).toMatch(/^not a readable WordPress export: .*entity/);
  });

  it("reads a post whose content shows a DOCTYPE (in CDATA, after the root)", async () => {
    const source = await openWordPressExport(await fileWith(wxrDocument([{ id: 1, title: "HTML", content: "<pre>&lt;!DOCTYPE html&gt;</pre>" }])));
    const items = [];
    for await (const item of source.items()) items.push(item);
    await source.close();
    expect(items).toHaveLength(1);
  });
});

describe("a file that is no WordPress export", () => {
  it("refuses an RSS feed without WordPress's namespace", async () => {
    const error = await refusal('<?xml version="1.0"?><rss version="2.0"><channel><title>A feed</title><item><title>Post</title></item></channel></rss>');
    expect(error.message).toContain("does not declare WordPress's export namespace");
  });

  it("refuses another XML document, HTML, JSON, an empty file", async () => {
    expect((await refusal(`<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom" ${WP_NAMESPACE}></feed>`)).message).toContain("its root element is <feed>, not <rss>");
    await refusal("<html><body><p>Hello</p></body></html>");
    await refusal('{"db": [{"data": {"posts": []}}]}');
    expect((await refusal("")).message).toContain("no XML element");
  });

  it("refuses an RSS document without a channel", async () => {
    expect((await refusal(`<rss ${WP_NAMESPACE}></rss>`)).message).toContain("no <channel>");
  });

  it("refuses a truncated export with the line it stopped at", async () => {
    const whole = wxrDocument([
      { id: 1, title: "One", content: "First" },
      { id: 2, title: "Two", content: "Second" },
    ]);
    const error = await refusal(whole.slice(0, Math.floor(whole.length * 0.7)));
    expect(error.message).toMatch(/^not a readable WordPress export: .* \(line \d+, column \d+\)$/);
  });
});
