import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { mkdtemp } from "node:fs/promises";
import { describe, expect, test } from "vitest";
import { MAX_GHOST_JSON_BYTES, openGhostExport } from "~/server/imports/ghost/read";
import { ImportFileError, type ImportSource, type SourceItem, type SourcePost } from "~/server/imports/source";
import { ghostImages, ghostV5Entries } from "../../imports/sources";
import { writeZip } from "./zip-fixture";

const FIXTURES = "tests/fixtures/imports/ghost";

async function itemsOf(source: ImportSource): Promise<SourceItem[]> {
  const items: SourceItem[] = [];
  for await (const item of source.items()) items.push(item);
  return items;
}

const posts = (items: SourceItem[]) => items.flatMap((item) => (item.kind === "post" ? [item.post] : []));
const bySlug = (items: SourceItem[], slug: string) => posts(items).find((post) => post.slug === slug) as SourcePost;

async function scratchFile(name: string, content: string | Buffer) {
  const path = join(await mkdtemp(join(tmpdir(), "ghost-reader-")), name);
  await writeFile(path, content);
  return path;
}

interface GhostPostRow { id: string; slug: string; type: string; status: string }

for (const file of ["v4-export.json", "v5-lexical-export.json"]) {
  describe(`Ghost ${file}`, () => {
    test("every post and page is read: counts by status equal the file's, slugs kept, pages skipped", async () => {
      const raw = JSON.parse(await readFile(join(FIXTURES, file), "utf8")) as { db: [{ data: { posts: GhostPostRow[] } }] };
      const rows = raw.db[0].data.posts;
      const source = await openGhostExport(join(FIXTURES, file));
      const items = await itemsOf(source);
      await source.close();
      expect(source.total).toBe(rows.length);
      expect(items).toHaveLength(rows.length);
      const expected = { published: 0, scheduled: 0, draft: 0, page: 0 };
      for (const row of rows) {
        if (row.type === "page") expected.page++;
        else if (row.status === "published") expected.published++;
        else if (row.status === "scheduled") expected.scheduled++;
        else expected.draft++;
      }
      const read = posts(items);
      expect(read.filter((post) => post.status === "published")).toHaveLength(expected.published);
      expect(read.filter((post) => post.status === "scheduled")).toHaveLength(expected.scheduled);
      expect(read.filter((post) => post.status === "draft")).toHaveLength(expected.draft);
      expect(items.filter((item) => item.kind === "skipped" && item.what === "page")).toHaveLength(expected.page);
      expect(read.map((post) => post.slug)).toEqual(rows.filter((row) => row.type !== "page").map((row) => row.slug));
      expect(read.map((post) => post.sourceId)).toEqual(rows.filter((row) => row.type !== "page").map((row) => `ghost:${row.id}`));
      expect(read.every((post) => post.oldPath === `/${post.slug}/`)).toBe(true);
    });
  });
}

describe("Ghost 4.x (mobiledoc and html)", () => {
  test("tags follow posts_tags' sort order; an internal tag is left out with a note; SEO from posts_meta", async () => {
    const items = await itemsOf(await openGhostExport(join(FIXTURES, "v4-export.json")));
    const post = bySlug(items, "integrations");
    expect(post.tags).toEqual(["Getting Started", "Zapier"]);
    expect(post.contentNotes).toContain("the internal tag #imported was left out");
    expect(post.seoTitle).toBe("Integrations with Ghost");
    expect(post.excerpt).toBe("Work with all your favorite apps and tools or create your own custom integrations using the Ghost API.");
    expect(post.coverImage).toBe("https://static.ghost.org/v4.0.0/images/app-integrations.png");
    expect(post.date?.toISOString()).toBe("2021-03-24T04:34:09.000Z");
    // Ghost's card markers are not content.
    expect(post.markdown).not.toContain("kg-card");
    expect(post.markdown).toContain("[integrations library](https://ghost.org/integrations/)");
  });

  test("a post with mobiledoc only is rendered from it: soft returns, marks, lists, the hr card", async () => {
    const post = bySlug(await itemsOf(await openGhostExport(join(FIXTURES, "v4-export.json"))), "grow");
    expect(post.markdown).toContain("**Contributors**\\\nThis is the base user level");
    expect(post.markdown).toContain("> _Ask all of your users");
    expect(post.markdown).toContain("\n---\n");
    expect(post.markdown).toContain("- **[Ghost(Pro)](https://ghost.org/pricing/)** pricing");
    expect(post.excerpt.startsWith("As you grow")).toBe(true);
  });

  test("scheduled keeps its date; sent (email only) becomes a draft with a note", async () => {
    const items = await itemsOf(await openGhostExport(join(FIXTURES, "v4-export.json")));
    expect(bySlug(items, "coming-next-week")).toMatchObject({ status: "scheduled", date: new Date("2031-04-01T09:00:00.000Z") });
    const sent = bySlug(items, "members-newsletter");
    expect(sent.status).toBe("draft");
    expect(sent.date).toBeNull();
    expect(sent.contentNotes.join(" ")).toMatch(/email only/);
  });

  test("the older bare {meta, data} shape and page: true are read too", async () => {
    const path = await scratchFile(
      "old.json",
      JSON.stringify({
        meta: { exported_on: 1426263451924, version: "003" },
        data: {
          posts: [
            { id: 1, title: "Welcome", slug: "welcome", markdown: "Hi", html: "<p>Hi <code>there</code></p>", page: 0, status: "published", meta_title: "Old SEO", published_at: 1426078349156, created_at: 1426078349135, updated_at: 1426078349135 },
            { id: 2, title: "About", slug: "about", html: "<p>About</p>", page: 1, status: "published" },
          ],
        },
      }),
    );
    const items = await itemsOf(await openGhostExport(path));
    expect(items[0]).toMatchObject({ kind: "post", post: { sourceId: "ghost:1", markdown: "Hi `there`", seoTitle: "Old SEO", date: new Date(1426078349156) } });
    expect(items[1]).toMatchObject({ kind: "skipped", what: "page", sourceId: "ghost:2" });
  });
});

describe("Ghost 5.x (lexical)", () => {
  const harbour = async () => bySlug(await itemsOf(await openGhostExport(join(FIXTURES, "v5-lexical-export.json"))), "harbour-mornings");

  test("text formats, links made relative, headings, lists and quotes", async () => {
    const { markdown } = await harbour();
    expect(markdown).toContain("Harbour mornings are **quiet** and _slow_, with `git pull` and ~~no rush~~.");
    expect(markdown).toContain("Read the [integrations post](/integrations/) first.\\\nThen come back.");
    expect(markdown).toContain("## What we saw");
    expect(markdown).toContain("- Gulls\n- Ferries");
    expect(markdown).toContain("1. Arrive\n2. Leave");
    expect(markdown).toContain("> The sea is patient.");
    expect(markdown).not.toContain("__GHOST_URL__");
  });

  test("cards: image with caption, gallery, code with its language, bookmark and embed as links, callout, markdown kept as written", async () => {
    const post = await harbour();
    expect(post.markdown).toContain("![The harbour at dawn](/content/images/2024/01/harbour.jpg)\n\n_The harbour at dawn_");
    expect(post.markdown).toContain("![Boats](/content/images/2024/01/boats.png)");
    expect(post.markdown).toContain("Two views");
    expect(post.markdown).toContain('```javascript\nconst tide = await forecast("brest");');
    expect(post.markdown).toContain("[Ghost Docs](https://ghost.org/docs/)");
    expect(post.markdown).toContain("[Harbour film](https://www.youtube.com/watch?v=dQw4w9WgXcQ)");
    expect(post.markdown).toContain("> 💡 Bring a coat.");
    expect(post.markdown).toContain("Some *markdown* kept as written[^1].\n\n[^1]: A footnote.");
    expect(post.markdown).toContain("| raw html cell |");
    expect(post.markdown).toContain("**When is high tide?**\n\nTwice a day.");
    expect(post.markdown).toContain("[Book a tour](https://example.com/tours)");
    expect(post.markdown).toContain("[Ferry timetable](/content/files/2024/01/timetable.pdf)");
    expect(post.markdown).toContain("For members after the divider.");
    expect(post.contentNotes).toEqual(
      expect.arrayContaining([
        "a bookmark card (https://ghost.org/docs/) is kept as a link",
        "an embed (https://www.youtube.com/watch?v=dQw4w9WgXcQ) is kept as a link",
        "a callout card is kept as a quote",
        "a signup form was left out",
        "the members-only divider was left out: the whole post is public here",
        "a transistor card was left out (it has no plain equivalent)",
      ]),
    );
    expect(post).toMatchObject({ tags: ["Sea", "Travel"], seoTitle: "Harbour mornings (SEO)", coverImage: "/content/images/2024/01/harbour.jpg" });
  });

  test("html is preferred over lexical, its kg-cards made plain", async () => {
    const post = bySlug(await itemsOf(await openGhostExport(join(FIXTURES, "v5-lexical-export.json"))), "welcome");
    expect(post.markdown).toBe(
      "Hello, beautiful world! 👋\n\n![Boats](/content/images/2024/01/boats.png)\n\n_Boats at rest_\n\n[Ghost Docs](https://ghost.org/docs/)\n\nEverything you need to know about working with Ghost.\n\n> 💡 Bring a coat.\n\n[Book a tour](https://example.com/tours)\n\nSee [Harbour mornings](/harbour-mornings/).",
    );
    // The bookmark's icon and thumbnail are decoration, not the post's images.
    expect(post.markdown).not.toContain("favicon");
  });
});

describe("Ghost zip with content/images", () => {
  test("__GHOST_URL__, relative and absolute references find the zip's images, however deep its root; others are null", async () => {
    const { jpeg, png } = await ghostImages();
    const path = await writeZip(await ghostV5Entries());
    const source = await openGhostExport(path);
    const post = bySlug(await itemsOf(source), "harbour-mornings");
    expect(await source.asset(post.coverImage!)).toEqual(jpeg);
    expect(await source.asset("__GHOST_URL__/content/images/2024/01/boats.png")).toEqual(png);
    expect(await source.asset("https://harbour.example/content/images/2024/01/boats.png")).toEqual(png);
    // Ghost's resized copy falls back to the original.
    expect(await source.asset("/content/images/size/w600/2024/01/harbour.jpg")).toEqual(jpeg);
    expect(await source.asset("/content/images/2024/01/missing.jpg")).toBeNull();
    expect(await source.asset("https://static.ghost.org/v4.0.0/images/ghost-user.png")).toBeNull();
    expect(await source.asset("/content/images/../../harbour.ghost.2024-01-11.json")).toBeNull();
    await source.close();
  });

  test("a JSON alone has no assets", async () => {
    const source = await openGhostExport(join(FIXTURES, "v5-lexical-export.json"));
    expect(await source.asset("/content/images/2024/01/harbour.jpg")).toBeNull();
  });
});

describe("Ghost hostile input", () => {
  const refused = async (path: string, message: RegExp) => {
    const error: unknown = await openGhostExport(path).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ImportFileError);
    expect((error as Error).message).toMatch(message);
  };

  test("not JSON", async () => refused(await scratchFile("x.json", "<?xml version='1.0'?><rss/>"), /not valid JSON/));
  test("JSON that is not a Ghost export", async () => refused(await scratchFile("x.json", JSON.stringify({ db: [{ meta: {}, data: { users: [] } }] })), /not a Ghost export/));
  test("a JSON above the bound is refused before it is read", async () => {
    const path = await scratchFile("big.json", "");
    await writeFile(path, Buffer.alloc(0));
    const { truncate } = await import("node:fs/promises");
    await truncate(path, MAX_GHOST_JSON_BYTES + 1);
    await refused(path, /larger than 100 MB/);
  });
  test("a JSON above the bound inside a zip is refused as it streams", async () => {
    const path = await writeZip([["big.json", Buffer.alloc(MAX_GHOST_JSON_BYTES + 1, 0x20)]]);
    await refused(path, /larger than 100 MB/);
  });
  test("a zip without a JSON", async () => refused(await writeZip([["content/images/a.jpg", "x"]]), /no Ghost export/));
  test("a zip whose entry escapes the archive", async () => {
    const path = await writeZip([["export.json", "{}"]]);
    // yazl refuses "../" names, so the name is written into the zip's bytes after.
    const bytes = await readFile(path);
    const patched = Buffer.from(bytes.toString("latin1").split("export.json").join("../xport.js"), "latin1");
    await writeFile(path, patched);
    await refused(path, /escape|malformed|invalid relative path/);
  });
});

describe("a Ghost post written in Markdown", () => {
  test("is read from its markdown card as written, ahead of the HTML rendered from it", async () => {
    const markdown = "Intro with `code`  \nand a hard break.\n\n![A](__GHOST_URL__/content/images/a/b.png)\n\n| a | b |\n|---|---|\n| 1 | 2 |\n";
    const mobiledoc = JSON.stringify({ version: "0.3.1", atoms: [], markups: [], cards: [["markdown", { markdown }]], sections: [[10, 0]] });
    const exported = {
      db: [{ meta: { version: "5.0.0" }, data: { posts: [{ id: "p1", title: "Verbatim", slug: "verbatim", type: "post", status: "draft", html: "<p>Rendered, lossy</p>", mobiledoc }], tags: [], posts_tags: [] } }],
    };
    const source = await openGhostExport(await scratchFile("export.json", JSON.stringify(exported)));
    const [post] = posts(await itemsOf(source));
    await source.close();
    expect(post!.markdown).toBe(markdown.replace("__GHOST_URL__", ""));
  });
});
