import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { apiBaseUrl, createTestAccount, db, seedBlogs, type TestAccount } from "../support/api";
import { runCli } from "../support/cli";
import { signIn } from "../support/dashboard";
import { tempDirMaker } from "../support/temp-dir";
import { richMarkdown, seedAccount, unzip, type SeededAccount } from "./seed";

/** The account's export (docs/migrating.md, Export), from the CLI and the dashboard's download. */

let seeded: SeededAccount;
let other: TestAccount;
const tempDir = tempDirMaker("export-");

beforeAll(async () => {
  [seeded, other] = await Promise.all([seedAccount(), createTestAccount()]);
  await seedBlogs(other.id, [{ title: "Someone else's secret", blogSlug: "secret", content: "not yours" }]);
});

const imagePath = (image: { id: string }, name: string) => `content/images/${image.id}/${name}`;
const COVER_NAME = "Cover-photo-final.png";
const INLINE_NAME = "inline.jpg";

async function exportWithCli(email: string): Promise<Map<string, Buffer>> {
  const out = join(await tempDir(), "export.zip");
  const run = await runCli(["export", "--email", email, "--out", out], { DATABASE_URL: process.env.DATABASE_URL! });
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  expect(JSON.parse(run.stdout)).toEqual({ file: out, blogs: 3, images: 2, subscribers: 2 });
  return unzip(await readFile(out));
}

describe("export --email E --out F.zip", () => {
  let entries: Map<string, Buffer>;
  beforeAll(async () => {
    entries = await exportWithCli(seeded.account.email);
  });

  it("holds ghost.json, a Markdown file a blog, each image's original and the subscribers", () => {
    expect([...entries.keys()].sort()).toEqual(
      [
        "ghost.json",
        "posts/coming-soon.md",
        "posts/half-written.md",
        "posts/hello-world.md",
        imagePath(seeded.cover, COVER_NAME),
        imagePath(seeded.inline, INLINE_NAME),
        "subscribers.csv",
      ].sort(),
    );
  });

  it("carries each image's original byte for byte", async () => {
    for (const [image, name] of [[seeded.cover, COVER_NAME], [seeded.inline, INLINE_NAME]] as const) {
      const served = Buffer.from(await (await fetch(new URL(new URL(image.url).pathname, apiBaseUrl()))).arrayBuffer());
      expect(entries.get(imagePath(image, name))!.equals(served)).toBe(true);
    }
  });

  it("writes ghost.json as Ghost 5 imports it, the Markdown kept verbatim in a markdown card", async () => {
    const ghost = JSON.parse(entries.get("ghost.json")!.toString("utf8"));
    expect(ghost.db).toHaveLength(1);
    expect(ghost.db[0].meta.version).toMatch(/^5\./);
    const data = ghost.db[0].data;
    const blogs = await db().blog.findMany({ where: { userId: seeded.account.id } });
    const byId = new Map(blogs.map((blog) => [blog.id, blog]));
    expect(data.posts.map((post: { id: string }) => post.id).sort()).toEqual([...byId.keys()].sort());

    const hello = data.posts.find((post: { id: string }) => post.id === seeded.blogs.published);
    const blog = byId.get(seeded.blogs.published)!;
    expect(hello).toMatchObject({
      title: "Hello, world",
      slug: "hello-world",
      type: "post",
      status: "published",
      custom_excerpt: "The first post",
      feature_image: `__GHOST_URL__/${imagePath(seeded.cover, COVER_NAME)}`,
      published_at: blog.publishedAt!.toISOString(),
      created_at: blog.createdAt.toISOString(),
      updated_at: blog.updatedAt.toISOString(),
    });
    const ghostUrl = `__GHOST_URL__/${imagePath(seeded.inline, INLINE_NAME)}`;
    const mobiledoc = JSON.parse(hello.mobiledoc);
    expect(mobiledoc.cards).toEqual([["markdown", { markdown: richMarkdown(ghostUrl, ghostUrl) }]]);
    expect(mobiledoc.sections).toEqual([[10, 0]]);
    expect(hello.html).toContain("<table>");
    expect(hello.html).toContain(`<img src="${ghostUrl}" alt="A camera picture"`);
    expect(hello.html.replaceAll("/content/images/", "")).not.toContain("/images/");

    const scheduled = data.posts.find((post: { id: string }) => post.id === seeded.blogs.scheduled);
    expect(scheduled).toMatchObject({ status: "scheduled", published_at: byId.get(seeded.blogs.scheduled)!.publishAt!.toISOString() });
    const draft = data.posts.find((post: { id: string }) => post.id === seeded.blogs.draft);
    expect(draft).toMatchObject({ status: "draft", published_at: null, feature_image: null });

    expect(data.tags.map((tag: { name: string; slug: string }) => [tag.name, tag.slug]).sort()).toEqual([
      ["Next.js", "next-js"],
      ["notes", "notes"],
      ["Écriture", "ecriture"],
    ]);
    const tagName = new Map(data.tags.map((tag: { id: string; name: string }) => [tag.id, tag.name]));
    const tagsOf = (postId: string) =>
      data.posts_tags
        .filter((link: { post_id: string }) => link.post_id === postId)
        .sort((a: { sort_order: number }, b: { sort_order: number }) => a.sort_order - b.sort_order)
        .map((link: { tag_id: string }) => tagName.get(link.tag_id));
    expect(tagsOf(seeded.blogs.published)).toEqual(["Next.js", "Écriture", "notes"]);
    expect(tagsOf(seeded.blogs.scheduled)).toEqual(["notes"]);
    expect(data.posts_meta).toEqual([expect.objectContaining({ post_id: seeded.blogs.published, meta_title: "Hello (SEO)", meta_description: "What search engines show" })]);
    expect(data.users).toHaveLength(1);
    expect(data.posts_authors).toHaveLength(3);
    expect(data.posts_authors.every((link: { author_id: string }) => link.author_id === data.users[0].id)).toBe(true);
  });

  it("writes each blog as Markdown with front matter, images as paths relative to the file", async () => {
    const file = entries.get("posts/hello-world.md")!.toString("utf8");
    const [, yaml, body] = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(file)!;
    const blog = await db().blog.findUniqueOrThrow({ where: { id: seeded.blogs.published } });
    expect(parse(yaml!)).toEqual({
      title: "Hello, world",
      slug: "hello-world",
      status: "published",
      date: blog.publishedAt!.toISOString(),
      created: blog.createdAt.toISOString(),
      updated: blog.updatedAt.toISOString(),
      tags: ["Next.js", "Écriture", "notes"],
      description: "The first post",
      cover_image: `../${imagePath(seeded.cover, COVER_NAME)}`,
      seo_title: "Hello (SEO)",
      seo_description: "What search engines show",
    });
    const relative = `../${imagePath(seeded.inline, INLINE_NAME)}`;
    expect(body).toBe(richMarkdown(relative, relative));

    const scheduled = parse(/^---\n([\s\S]*?)\n---\n/.exec(entries.get("posts/coming-soon.md")!.toString("utf8"))![1]!);
    expect(scheduled).toMatchObject({ status: "scheduled", publishAt: scheduled.date });
    const draft = parse(/^---\n([\s\S]*?)\n---\n/.exec(entries.get("posts/half-written.md")!.toString("utf8"))![1]!);
    expect(draft.status).toBe("draft");
    expect(draft.date).toBeUndefined();
  });

  it("writes the subscribers as the subscribers export does, formulas escaped", () => {
    const csv = entries.get("subscribers.csv")!.toString("utf8");
    expect(csv.split("\n")[0]).toBe("email,name,status,source,created_at,confirmed_at,unsubscribed_at");
    expect(csv).toContain("ada@example.com,Ada Lovelace,active,form,");
    expect(csv).toContain(`mallory@example.com,"'=HYPERLINK(""https://evil.example"",""x"")",active,api,`);
  });

  it("refuses an unknown owner", async () => {
    const run = await runCli(["export", "--email", "nobody@example.test", "--out", join(await tempDir(), "x.zip")], { DATABASE_URL: process.env.DATABASE_URL! });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("export: no account with email nobody@example.test");
  });

  it("exports an empty account as an empty Ghost export and a header-only CSV", async () => {
    const empty = await createTestAccount();
    const out = join(await tempDir(), "empty.zip");
    expect((await runCli(["export", "--email", empty.email, "--out", out], { DATABASE_URL: process.env.DATABASE_URL! })).code).toBe(0);
    const files = await unzip(await readFile(out));
    expect([...files.keys()].sort()).toEqual(["ghost.json", "subscribers.csv"]);
    expect(JSON.parse(files.get("ghost.json")!.toString()).db[0].data).toMatchObject({ posts: [], tags: [], posts_tags: [] });
  });
});

describe("GET /dashboard/export", () => {
  it("is refused signed out", async () => {
    const response = await fetch(new URL("/dashboard/export", apiBaseUrl()), { redirect: "manual" });
    expect(response.status).toBe(401);
    expect(response.headers.get("content-type")).toContain("application/json");
    expect((await response.json()).success).toBe(false);
  });

  it("downloads the signed-in owner's zip, named after the handle and the day, with nothing of another account", async () => {
    const cookie = await signIn(seeded.account);
    const response = await fetch(new URL("/dashboard/export", apiBaseUrl()), { headers: { cookie } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/zip");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename="${seeded.account.handle}-export-${new Date().toISOString().slice(0, 10)}.zip"`);
    const entries = await unzip(Buffer.from(await response.arrayBuffer()));
    expect(entries.has("posts/hello-world.md")).toBe(true);
    const everything = [...entries.entries()].map(([name, data]) => name + data.toString("latin1")).join("\n");
    expect(everything).not.toContain("secret");
    expect(everything).not.toContain(other.id);

    const theirs = await unzip(Buffer.from(await (await fetch(new URL("/dashboard/export", apiBaseUrl()), { headers: { cookie: await signIn(other) } })).arrayBuffer()));
    expect([...theirs.keys()].sort()).toEqual(["ghost.json", "posts/secret.md", "subscribers.csv"]);
    expect(theirs.get("ghost.json")!.toString()).not.toContain("hello-world");
  });
});
