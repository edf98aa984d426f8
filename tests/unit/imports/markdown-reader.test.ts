import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { writeZip } from "./zip-fixture";
import { detectFormat } from "~/server/imports/detect-format";
import { openMarkdownExport } from "~/server/imports/markdown/read";
import { markdownImageUrls, replaceImageUrls } from "~/server/imports/markdown-images";
import { normalizePermalinkPath, oldPathBelow } from "~/server/imports/permalinks";
import type { SourceItem } from "~/server/imports/source";

async function itemsOf(path: string): Promise<SourceItem[]> {
  const source = await openMarkdownExport(path);
  const items: SourceItem[] = [];
  for await (const item of source.items()) items.push(item);
  await source.close();
  return items;
}

const posts = (items: SourceItem[]) => items.flatMap((item) => (item.kind === "post" ? [item.post] : []));

describe("the Markdown reader", () => {
  it("reads Jekyll posts and drafts, their dates, tags and images", async () => {
    const path = await writeZip({
      "_posts/2021-03-04-hello.md": "---\ntitle: Hello\ntags: [a, b]\ncategories: [c]\nexcerpt: Short\nimage: /assets/cover.jpg\n---\nText ![x](../assets/pic.png)\n",
      "_drafts/later.md": "---\ntitle: Later\n---\nSoon\n",
      "assets/pic.png": Buffer.from("png"),
      "assets/cover.jpg": Buffer.from("jpg"),
      "assets/unused.gif": Buffer.from("gif"),
    });
    expect(await detectFormat(path)).toBe("markdown");
    const items = await itemsOf(path);
    const [hello, later] = posts(items);
    expect(hello).toMatchObject({
      sourceId: "markdown:_posts/2021-03-04-hello.md",
      title: "Hello",
      slug: "hello",
      excerpt: "Short",
      status: "published",
      tags: ["a", "b", "c"],
      coverImage: "assets/cover.jpg",
      markdown: "Text ![x](assets/pic.png)",
    });
    expect(hello!.date?.toISOString()).toBe("2021-03-04T00:00:00.000Z");
    expect(later).toMatchObject({ slug: "later", status: "draft" });
    expect(items.filter((item) => item.kind === "skipped")).toEqual([
      { kind: "skipped", sourceId: "markdown:assets/unused.gif", what: "file", title: "assets/unused.gif", reason: "not a Markdown post" },
    ]);
  });

  it("reads Hugo's TOML front matter and page bundles, Dev.to's published and comma tags", async () => {
    const path = await writeZip({
      "content/posts/bundle/index.md": '+++\ntitle = "Bundled"\ndate = 2020-01-02T03:04:05Z\ndraft = true\ntags = ["go", "hugo"]\nweird line\n+++\nBody\n',
      "devto/post.md": "---\ntitle: Dev\npublished: false\ntags: js, web , css\ncover_image: https://example.com/c.png\n---\nx\n",
    });
    const [hugo, dev] = posts(await itemsOf(path));
    expect(hugo).toMatchObject({ title: "Bundled", slug: "bundle", status: "draft", tags: ["go", "hugo"] });
    expect(hugo!.contentNotes[0]).toContain("weird line");
    expect(dev).toMatchObject({ status: "draft", tags: ["js", "web", "css"], coverImage: "https://example.com/c.png" });
  });

  it("takes the title from the first heading when the front matter has none", async () => {
    const [post] = posts(await itemsOf(await writeZip({ "notes/a-note.md": "# The heading\n\nText\n" })));
    expect(post).toMatchObject({ title: "The heading", slug: "a-note", markdown: "Text" });
  });
});

describe("format detection", () => {
  it("tells formats by content, not name", async () => {
    const write = async (text: string) => {
      const path = join(tmpdir(), `f-${randomUUID()}.txt`);
      await writeFile(path, text);
      return path;
    };
    expect(await detectFormat(await write('\uFEFF  <?xml version="1.0"?><rss>'))).toBe("wordpress");
    expect(await detectFormat(await write('{"db": []}'))).toBe("ghost");
    expect(await detectFormat(await writeZip({ "posts.csv": "post_id\n", "posts/1.html": "<p>" }))).toBe("substack");
    expect(await detectFormat(await writeZip({ "export.json": '{"db": [{"meta": {}}]}' }))).toBe("ghost");
    await expect(detectFormat(await write("hello"))).rejects.toThrow(/WordPress export/);
    await expect(detectFormat(await writeZip({ "a.txt": "x" }))).rejects.toThrow(/no export we read/);
  });
});

describe("image URLs and permalinks", () => {
  it("finds and rewrites Markdown and HTML images", () => {
    const markdown = '![a](one.png "t") <img src="two.png" alt=""> ![b](<with space.png>)';
    expect(markdownImageUrls(markdown)).toEqual(["one.png", "with space.png", "two.png"]);
    expect(replaceImageUrls(markdown, (url) => (url === "two.png" ? "/images/x/2.png" : url === "one.png" ? "/images/x/1.png" : url))).toBe(
      '![a](/images/x/1.png "t") <img src="/images/x/2.png" alt=""> ![b](<with space.png>)',
    );
  });

  it("normalizes old paths", () => {
    expect(normalizePermalinkPath("/2019/05/hello/")).toBe("/2019/05/hello");
    expect(normalizePermalinkPath("/2019/%305/h%C3%A9llo?x=1")).toBe("/2019/05/h%C3%A9llo");
    expect(normalizePermalinkPath("/")).toBeNull();
    expect(normalizePermalinkPath("/a/../b")).toBeNull();
    expect(oldPathBelow("https://old.example/blog/", "https://old.example/blog/2019/x/")).toBe("/2019/x");
    expect(oldPathBelow("https://old.example", "/2019/x/")).toBe("/2019/x");
  });
});
