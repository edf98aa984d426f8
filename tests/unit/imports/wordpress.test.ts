import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { SourceItem, SourcePost } from "~/server/imports/source";
import { openWordPressExport } from "~/server/imports/wordpress/read";
import { WXR_SITE, wxrDocument, type WxrItemFields } from "../../../bench/wxr";
import { rawWxrItems, THEME_UNIT_TEST_DATA, themeUnitTestXml, type RawWxrItem } from "../../imports/sources";
import { tempDirMaker } from "../../support/temp-dir";

/**
 * The WordPress reader (docs/migrating.md, WordPress) on WordPress's own theme unit test data
 * (tests/fixtures/imports/README.md), its counts checked against the XML counted here with plain
 * regular expressions, and on small exports written for the cases that file lacks.
 */

const makeTempDir = tempDirMaker("imports-wordpress-");

async function readAll(path: string): Promise<{ total: number | null; siteUrl: string | null; items: SourceItem[] }> {
  const source = await openWordPressExport(path);
  try {
    const items: SourceItem[] = [];
    for await (const item of source.items()) items.push(item);
    return { total: source.total, siteUrl: source.siteUrl, items };
  } finally {
    await source.close();
  }
}

const postsOf = (items: SourceItem[]) => items.flatMap((item) => (item.kind === "post" ? [item.post] : []));
const skippedOf = (items: SourceItem[]) => items.flatMap((item) => (item.kind === "skipped" ? [item] : []));

describe("the theme unit test data", () => {
  let raw: RawWxrItem[];
  let result: Awaited<ReturnType<typeof readAll>>;
  let posts: SourcePost[];
  const post = (title: string) => {
    const found = posts.find((candidate) => candidate.title === title);
    if (!found) throw new Error(`no post "${title}"`);
    return found;
  };

  beforeAll(async () => {
    raw = rawWxrItems(await themeUnitTestXml());
    result = await readAll(THEME_UNIT_TEST_DATA);
    posts = postsOf(result.items);
  });

  it("counts every item and comment before reading them, for the progress bar", () => {
    expect(raw).toHaveLength(186);
    expect(result.total).toBe(raw.length + raw.reduce((sum, item) => sum + item.comments, 0));
    expect(result.items).toHaveLength(result.total ?? -1);
    expect(result.siteUrl).toBe("https://wpthemetestdata.wordpress.com");
  });

  it("maps each status as the file has it: publish → published, future → scheduled, the rest and protected posts → draft", () => {
    const rawPosts = raw.filter((item) => item.type === "post");
    const published = rawPosts.filter((item) => item.status === "publish" && !item.password);
    const scheduled = rawPosts.filter((item) => item.status === "future" && !item.password);
    expect(posts).toHaveLength(rawPosts.length);
    expect(posts.filter((item) => item.status === "published")).toHaveLength(published.length);
    expect(posts.filter((item) => item.status === "scheduled")).toHaveLength(scheduled.length);
    expect(posts.filter((item) => item.status === "draft")).toHaveLength(rawPosts.length - published.length - scheduled.length);
    expect(published.length).toBeGreaterThan(50);
    expect(scheduled).toHaveLength(1);
  });

  it("keeps each post's slug, date (GMT), categories and tags in order, and source id", () => {
    const byId = new Map(raw.map((item) => [`wordpress:https://wpthemetestdata.wordpress.com:${item.id}`, item]));
    for (const mapped of posts) {
      const original = byId.get(mapped.sourceId);
      expect(original, mapped.sourceId).toBeDefined();
      expect(mapped.slug).toBe(original?.slug);
      expect(mapped.tags).toEqual(original?.terms);
      if (mapped.status !== "draft") expect(mapped.date?.toISOString()).toBe(`${original?.dateGmt.replace(" ", "T")}.000Z`);
    }
    const caption = post("Post Format: Image (Caption)");
    expect(caption.slug).toBe("post-format-image-caption");
    expect(caption.oldPath).toBe("/2010/08/07/post-format-image-caption/");
    expect(caption.coverImage).toBe("https://wpthemetestdata.files.wordpress.com/2010/08/triforce-wallpaper.jpg");
  });

  it("skips pages, attachments, menu items and every comment, each with its reason, counted as the file has them", () => {
    const skipped = skippedOf(result.items);
    const count = (what: string) => skipped.filter((item) => item.what === what).length;
    expect(count("page")).toBe(raw.filter((item) => item.type === "page").length);
    expect(count("attachment")).toBe(raw.filter((item) => item.type === "attachment").length);
    expect(count("menu item")).toBe(raw.filter((item) => item.type === "nav_menu_item").length);
    expect(count("comment")).toBe(raw.reduce((sum, item) => sum + item.comments, 0));
    expect(count("page") + count("attachment") + count("menu item") + count("comment")).toBe(skipped.length);
    for (const item of skipped) expect(item.reason).not.toBe("");
    const comment = skipped.find((item) => item.what === "comment");
    expect(comment?.sourceId).toMatch(/^wordpress:https:\/\/wpthemetestdata\.wordpress\.com:\d+:comment:\d+$/);
    expect(comment?.reason).toBe("comments are not imported");
  });

  it("keeps captions as an image and an italic line, and galleries as their images", () => {
    expect(post("Post Format: Image (Caption)").markdown).toContain(
      "[![Bell on Wharf](https://wpthemetestdata.files.wordpress.com/2008/06/100_5478.jpg?w=604)](https://wpthemetestdata.files.wordpress.com/2008/06/100_5478.jpg)\n\n_Bell on wharf in San Francisco_",
    );
    expect(posts.some((item) => item.markdown.includes("_Chunk of resinous blackboy husk, Clarkson, Western Australia. This burns like a spinifex log._"))).toBe(true);
    const gallery = post("Post Format: Gallery").markdown;
    expect(gallery).toContain("- ![canola](https://wpthemetestdata.files.wordpress.com/2008/06/canola2.jpg)");
    expect(gallery).not.toContain("[gallery");
    const tiled = post("Post Format: Gallery (Tiled)");
    expect(tiled.markdown.match(/!\[/g)).toHaveLength(5);
    expect(tiled.contentNotes).toContain("a gallery's images 763 are not in the export: left out of the gallery");
  });

  it("turns shortcodes and embeds it cannot render into links, with a note", () => {
    const audio = posts.find((item) => item.contentNotes.some((note) => note.startsWith("an audio file (")));
    expect(audio?.markdown).toContain("https://wpthemetestdata.files.wordpress.com/2008/06/originaldixielandjazzbandwithalbernard-stlouisblues.mp3");
    const youtube = post("Post Format: Video (YouTube)");
    expect(youtube.contentNotes).toContain("an embed (https://www.youtube.com/watch?v=SQEQr7c0-dw) is kept as a link");
    expect(youtube.markdown).toContain("<https://www.youtube.com/watch?v=SQEQr7c0-dw>");
    for (const item of posts) expect(item.markdown, item.title).not.toMatch(/\[\/?(?:caption|gallery|embed|audio|video)(?:\s[^\]]*)?\](?!\()/);
  });

  it("keeps special characters, long titles and markup-free titles, and makes a future post scheduled", () => {
    expect(post("Markup: Title With Special Characters ~`!@#$%^&*()-_=+{}[]/\\;:'\"?,.>").slug).toBe("title-with-special-characters");
    expect(post("Taumatawhakatangihangakoauauotamateaturipukakapikimaungahoronukupokaiwhenuakitanatahu").slug).toBe("title-should-not-overflow-the-content-area");
    expect(post("Markup: Title With Markup").contentNotes).toContain("the title's HTML markup was removed");
    const untitled = posts.find((item) => item.slug === "edge-case-no-title");
    expect(untitled?.title).toBe("(untitled)");
    expect(untitled?.contentNotes).toContain("the post had no title in WordPress");
    const scheduled = post("Scheduled");
    expect(scheduled.status).toBe("scheduled");
    expect(scheduled.date?.toISOString()).toBe("2030-01-01T19:00:18.000Z");
    const draft = post("Draft");
    expect([draft.status, draft.date, draft.slug, draft.oldPath]).toEqual(["draft", null, "", null]);
    const passwordProtected = post('Template: Password Protected (the password is "enter")');
    expect(passwordProtected.status).toBe("draft");
    expect(passwordProtected.contentNotes).toContain("was password-protected in WordPress; imported as a draft");
  });

  it("keeps tables and code blocks, and leaves no block-editor comment", () => {
    expect(posts.some((item) => /^\| .+ \|$/m.test(item.markdown) && /^\| -+/m.test(item.markdown))).toBe(true);
    expect(post("Block category: Formatting").markdown).toContain("```\nThe code block starts with\n<!-- wp:code -->\n<?php echo 'Hello World'; ?>\n```");
    for (const item of posts) expect(item.markdown.replace(/```[\s\S]*?```/g, ""), item.title).not.toMatch(/<!--/);
  });
});

describe("what the theme unit test data lacks", () => {
  const write = async (items: WxrItemFields[]) => {
    const path = join(await makeTempDir(), "export.xml");
    await writeFile(path, wxrDocument(items));
    return path;
  };

  it("makes private and pending posts drafts, noting the private one, and skips trashed posts", async () => {
    const { items } = await readAll(
      await write([
        { id: 1, title: "Private", status: "private" },
        { id: 2, title: "Pending", status: "pending" },
        { id: 3, title: "Trashed", status: "trash" },
      ]),
    );
    const [privatePost, pending] = postsOf(items);
    expect(privatePost?.status).toBe("draft");
    expect(privatePost?.contentNotes).toContain("was private in WordPress; imported as a draft");
    expect(pending?.status).toBe("draft");
    expect(pending?.contentNotes).toEqual([]);
    expect(skippedOf(items)).toEqual([{ kind: "skipped", sourceId: `wordpress:${WXR_SITE}:3`, what: "post", title: "Trashed", reason: "it is in WordPress's trash" }]);
  });

  it("skips revisions, reusable blocks and custom post types by name, and each comment", async () => {
    const { items, total } = await readAll(
      await write([
        { id: 1, title: "A revision", type: "revision", status: "inherit" },
        { id: 2, title: "A pattern", type: "wp_block" },
        { id: 3, title: "A product", type: "product", comments: [{ id: 7, author: "Ann", content: "Nice" }] },
      ]),
    );
    expect(total).toBe(4);
    expect(skippedOf(items).map((item) => [item.what, item.sourceId])).toEqual([
      ["revision", `wordpress:${WXR_SITE}:1`],
      ["reusable block", `wordpress:${WXR_SITE}:2`],
      ["product", `wordpress:${WXR_SITE}:3`],
      ["comment", `wordpress:${WXR_SITE}:3:comment:7`],
    ]);
    expect(skippedOf(items)[2]?.reason).toBe('"product" is a custom post type of the WordPress site: only posts are imported');
  });

  it("finds a featured image and a gallery's images whose attachments come after the post", async () => {
    const { items } = await readAll(
      await write([
        { id: 10, title: "Cover later", content: '[gallery ids="11,12"]', meta: { _thumbnail_id: "11" } },
        { id: 11, title: "First photo", type: "attachment", status: "inherit", attachmentUrl: `${WXR_SITE}/a.jpg` },
        { id: 12, title: "Second photo", type: "attachment", status: "inherit", attachmentUrl: `${WXR_SITE}/b.jpg`, meta: { _wp_attachment_image_alt: "A boat" } },
      ]),
    );
    const [post] = postsOf(items);
    expect(post?.coverImage).toBe(`${WXR_SITE}/a.jpg`);
    expect(post?.markdown).toBe(`- ![First photo](${WXR_SITE}/a.jpg)\n- ![A boat](${WXR_SITE}/b.jpg)`);
  });

  it("cuts a title, an excerpt and SEO fields to our limits with a note, and fills Yoast's variables", async () => {
    const longTitle = `${"A very long title ".repeat(20)}😀 end`;
    const { items } = await readAll(
      await write([
        {
          id: 1,
          title: longTitle,
          excerpt: "x".repeat(1500),
          meta: { _yoast_wpseo_title: "%%title%% %%sep%% %%sitename%% %%page%%", _yoast_wpseo_metadesc: "About &amp; around" },
        },
        { id: 2, title: "Short", meta: { _yoast_wpseo_title: "%%title%% %%sep%% %%sitename%%" } },
      ]),
    );
    const [long, short] = postsOf(items);
    expect([...(long?.title ?? "")]).toHaveLength(200);
    expect(long?.title.endsWith("…")).toBe(true);
    expect(long?.contentNotes).toContain(`the title was cut to 200 characters (it had ${[...longTitle].length})`);
    expect(long?.excerpt).toHaveLength(1000);
    expect(long?.contentNotes).toContain("the excerpt was cut to 1000 characters (it had 1500)");
    expect(long?.seoTitle.length).toBeLessThanOrEqual(200);
    expect(long?.seoDescription).toBe("About & around");
    expect(short?.seoTitle).toBe("Short – An Old Blog");
  });

  it("reads the one .xml file of a zip, and refuses a zip without one or with several", async () => {
    const { items } = await readAll(THEME_UNIT_TEST_DATA);
    expect(postsOf(items).length).toBeGreaterThan(0);
    const dir = await makeTempDir();
    const { default: yazl } = await import("yazl");
    const zip = async (name: string, entries: string[]) => {
      const archive = new yazl.ZipFile();
      for (const entry of entries) archive.addBuffer(Buffer.from(wxrDocument([])), entry);
      archive.end();
      const chunks: Buffer[] = [];
      for await (const chunk of archive.outputStream) chunks.push(chunk as Buffer);
      await writeFile(join(dir, name), Buffer.concat(chunks));
      return join(dir, name);
    };
    await expect(openWordPressExport(await zip("none.zip", ["readme.txt"]))).rejects.toThrow("the zip holds no .xml file");
    await expect(openWordPressExport(await zip("two.zip", ["a.xml", "b.xml"]))).rejects.toThrow("the zip holds 2 .xml files (a.xml, b.xml): import them one at a time");
    expect((await readAll(await zip("one.zip", ["export/site.xml", "__MACOSX/export/._site.xml"]))).total).toBe(0);
  });
});
