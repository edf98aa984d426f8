import { readFile } from "node:fs/promises";
import { expect, it } from "vitest";
import { wxrDocument } from "../../bench/wxr";
import { png } from "../images/fixtures";
import { apiBaseUrl, createTestAccount, db, type TestAccount } from "../support/api";
import { SLUG_PATTERN } from "~/shared/blog-fields";
import type { ImportView } from "~/shared/imports";
import { ghostRows, ghostV5Entries, GHOST_V5, rawWxrItems, substackEntries, substackRows, THEME_UNIT_TEST_DATA, themeUnitTestXml, zipOf } from "./sources";
import { importFile } from "./support";

/**
 * Real exports of each platform through the whole pipeline (docs/migrating.md): POST /api/v1/imports,
 * the job on the suite's server, GET until done. The source is counted here on its own (./sources.ts),
 * never with the reader; each import is checked for its blogs by status, their slugs, the report's
 * skipped items by kind, the images, a second import of the same file (nothing created, nothing
 * changed) and the old permalinks' 301s.
 */

type Status = "published" | "scheduled" | "draft";
type Counts = Record<Status, number>;

interface Expected {
  /** Posts by the status their blog must have. */
  statuses: Counts;
  /** Each post's source id → the slug it had ("" for none). */
  slugs: Map<string, string>;
  skippedByKind: Record<string, number>;
  /** Old permalink paths (below oldUrl) → the slug of the blog they must lead to. */
  permalinks: [oldPath: string, slug: string][];
}

const countBy = (statuses: Status[]): Counts => ({
  published: statuses.filter((status) => status === "published").length,
  scheduled: statuses.filter((status) => status === "scheduled").length,
  draft: statuses.filter((status) => status === "draft").length,
});

/** Imports `file` into a new account and checks what the source says it holds; returns the account and the import. */
async function importAndCheck(file: Buffer, expected: Expected, oldUrl: string): Promise<{ account: TestAccount; done: ImportView }> {
  const account = await createTestAccount();
  const done = await importFile(account.key, file, { oldUrl });
  expect(done.error).toBeNull();
  expect(done.status).toBe("done");
  const posts = expected.slugs.size;
  expect(done.report).toMatchObject({ imported: posts, alreadyImported: 0, skippedByKind: expected.skippedByKind });
  expect(done.progress.processed).toBe(done.progress.total);

  const blogs = await db().blog.findMany({ where: { userId: account.id } });
  expect(blogs).toHaveLength(posts);
  expect(blogs.every((blog) => blog.importId === done.id)).toBe(true);
  expect(countBy(blogs.map((blog) => blog.status))).toEqual(expected.statuses);
  // Slugs kept; a changed one is in the report, with its reason.
  const slugChanges = new Set(done.report.changedItems.filter((item) => item.change === "slug").map((item) => item.sourceId));
  for (const blog of blogs) {
    const slug = expected.slugs.get(blog.importSourceId ?? "");
    expect(slug, blog.importSourceId ?? "").toBeDefined();
    // A post without a slug gets one from its title (not a change: there was none to keep).
    if (slug === "") expect(blog.blogSlug).toMatch(SLUG_PATTERN);
    else if (blog.blogSlug !== slug) expect(slugChanges, `${blog.importSourceId}: ${slug} → ${blog.blogSlug}`).toContain(blog.importSourceId);
  }
  // Images: every one the report counts is the account's, and none other was left behind.
  expect(await db().image.count({ where: { userId: account.id } })).toBe(done.report.images);

  for (const [oldPath, slug] of expected.permalinks) {
    const response = await fetch(new URL(`/${account.handle}${oldPath.replace(/\/$/, "")}`, apiBaseUrl()), { redirect: "manual" });
    expect(response.status, oldPath).toBe(301);
    const blog = blogs.find((each) => expected.slugs.get(each.importSourceId ?? "") === slug);
    expect(response.headers.get("location"), oldPath).toBe(`/${account.handle}/${blog?.blogSlug}`);
  }

  // The same file again: nothing created, nothing changed.
  const subscribers = await db().subscriber.findMany({ where: { userId: account.id }, orderBy: { id: "asc" } });
  const again = await importFile(account.key, file, { oldUrl });
  expect(again.report).toMatchObject({ imported: 0, alreadyImported: posts, images: 0, subscribers: 0, subscribersAlreadyPresent: subscribers.length });
  const after = await db().blog.findMany({ where: { userId: account.id } });
  const updated = (list: typeof blogs) => Object.fromEntries(list.map((blog) => [blog.id, blog.updatedAt.toISOString()]));
  expect(updated(after)).toEqual(updated(blogs));
  expect(await db().image.count({ where: { userId: account.id } })).toBe(done.report.images);
  expect(await db().subscriber.findMany({ where: { userId: account.id }, orderBy: { id: "asc" } })).toEqual(subscribers);
  return { account, done };
}

it("WordPress's theme unit test data", { timeout: 120_000 }, async () => {
  const raw = rawWxrItems(await themeUnitTestXml());
  const posts = raw.filter((item) => item.type === "post");
  const site = "https://wpthemetestdata.wordpress.com";
  const statusOf = (item: (typeof raw)[number]): Status => (item.password ? "draft" : item.status === "publish" ? "published" : item.status === "future" ? "scheduled" : "draft");
  // Posts whose permalink was dated (those at /{slug}/ already are at their address here).
  const sample = posts.filter((item) => statusOf(item) === "published" && new URL(item.link).pathname !== `/${item.slug}/`).filter((_, index) => index % 8 === 0);
  const { account } = await importAndCheck(
    await readFile(THEME_UNIT_TEST_DATA),
    {
      statuses: countBy(posts.map(statusOf)),
      slugs: new Map(posts.map((item) => [`wordpress:${site}:${item.id}`, item.slug])),
      skippedByKind: {
        page: raw.filter((item) => item.type === "page").length,
        attachment: raw.filter((item) => item.type === "attachment").length,
        "menu item": raw.filter((item) => item.type === "nav_menu_item").length,
        comment: raw.reduce((sum, item) => sum + item.comments, 0),
      },
      permalinks: sample.map((item) => [new URL(item.link).pathname, item.slug]),
    },
    site,
  );
  expect(sample.length).toBeGreaterThanOrEqual(5);
  const scheduled = posts.find((item) => item.status === "future")!;
  expect(await db().blog.findFirstOrThrow({ where: { userId: account.id, importSourceId: `wordpress:${site}:${scheduled.id}` } })).toMatchObject({
    status: "scheduled",
    isPublic: false,
    publishAt: new Date(`${scheduled.dateGmt.replace(" ", "T")}Z`),
  });
});

it("WordPress statuses: publish, future, draft, pending, private and a password", async () => {
  const future = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 19).replace("T", " ");
  const items = [
    { id: 1, title: "Out", status: "publish" },
    { id: 2, title: "Soon", status: "future", date: future },
    { id: 3, title: "Unfinished", status: "draft" },
    { id: 4, title: "Waiting", status: "pending" },
    { id: 5, title: "Mine", status: "private" },
    { id: 6, title: "Locked", status: "publish", password: "secret" },
  ];
  const account = await createTestAccount();
  const done = await importFile(account.key, Buffer.from(wxrDocument(items)), {});
  expect(done.report.imported).toBe(items.length);
  const blogs = await db().blog.findMany({ where: { userId: account.id }, orderBy: { title: "asc" } });
  expect(Object.fromEntries(blogs.map((blog) => [blog.title, blog.status]))).toEqual({
    Out: "published",
    Soon: "scheduled",
    Unfinished: "draft",
    Waiting: "draft",
    Mine: "draft",
    Locked: "draft",
  });
});

it("a Ghost 5 export (lexical) in its zip with its images", async () => {
  const rows = await ghostRows(GHOST_V5);
  const posts = rows.filter((row) => row.type !== "page");
  const { account, done } = await importAndCheck(
    await zipOf(await ghostV5Entries()),
    {
      statuses: countBy(posts.map((row) => (row.status === "published" ? "published" : row.status === "scheduled" ? "scheduled" : "draft"))),
      slugs: new Map(posts.map((row) => [`ghost:${row.id}`, row.slug])),
      skippedByKind: { page: rows.length - posts.length },
      permalinks: [],
    },
    "https://harbour.example/",
  );
  // Both images of the zip are ours, and the Markdown points at them, never at Ghost's paths.
  expect(done.report).toMatchObject({ images: 2, failedImages: 0 });
  const harbour = await db().blog.findFirstOrThrow({ where: { userId: account.id, blogSlug: "harbour-mornings" }, include: { coverImage: true } });
  expect(harbour.content).toMatch(/!\[The harbour at dawn\]\(\/images\/[0-9a-f]{32}\/[^)]+\)/);
  expect(harbour.content).toMatch(/!\[Boats\]\(\/images\/[0-9a-f]{32}\/[^)]+\)/);
  expect(harbour.content).not.toMatch(/content\/images|__GHOST_URL__/);
  expect(harbour.coverImage).toMatchObject({ width: 8, height: 6, importId: done.id });
  // Ghost's permalinks are /{slug}/: the old path already is the post's address here.
  expect((await fetch(new URL(`/${account.handle}/harbour-mornings`, apiBaseUrl()), { redirect: "manual" })).status).toBe(200);
});

it("a Substack export: its posts, and its email list as subscribers with their statuses", async () => {
  const { posts: rows, emails } = await substackRows();
  const entries = await substackEntries();
  const bodies = new Set(entries.map(([name]) => name));
  const posts = rows.filter((row) => row.type !== "thread" && row.type !== "page" && bodies.has(`posts/${row.post_id}.html`));
  const slugOf = (row: (typeof rows)[number]) => row.post_id!.split(".").slice(1).join(".");
  // Refused addresses (Unicode before the @ is not one we send to) are skipped and counted.
  const refused = emails.filter((row) => !/^[\x21-\x7e]+@[\x21-\x7e]+$/.test(row.email!));
  const published = posts.filter((row) => row.is_published === "true" && row.audience !== "only_paid");
  const { account, done } = await importAndCheck(
    await zipOf(entries),
    {
      statuses: { published: published.length, scheduled: 0, draft: posts.length - published.length },
      slugs: new Map(posts.map((row) => [`substack:${row.post_id!.split(".")[0]}`, slugOf(row)])),
      skippedByKind: {
        thread: rows.filter((row) => row.type === "thread").length,
        page: rows.filter((row) => row.type === "page").length,
        post: rows.length - posts.length - rows.filter((row) => row.type === "thread" || row.type === "page").length,
        ...(refused.length > 0 ? { subscriber: refused.length } : {}),
      },
      permalinks: published.map((row) => [`/p/${slugOf(row)}`, slugOf(row)]),
    },
    "https://harbour.substack.com",
  );
  expect(done.report).toMatchObject({ subscribers: emails.length - refused.length, subscribersAlreadyPresent: 0 });
  const subscribers = await db().subscriber.findMany({ where: { userId: account.id } });
  expect(Object.fromEntries(subscribers.map((row) => [row.email, row.status]))).toEqual(
    Object.fromEntries(emails.filter((row) => !refused.includes(row)).map((row) => [row.email, row.email_disabled === "true" ? "unsubscribed" : "active"])),
  );
  expect(subscribers.every((row) => row.importId === done.id)).toBe(true);
});

it("a Markdown zip: Jekyll and Hugo posts with front matter and relative images", async () => {
  const files = {
    "_posts/2021-03-04-harbour-notes.md": "---\ntitle: Harbour notes\ntags: [sea, boats]\npermalink: /2021/03/harbour-notes/\n---\nAt dawn.\n\n![boats](../assets/boats.png)\n",
    "_posts/2099-01-01-from-the-future.md": "---\ntitle: From the future\n---\nNot yet.\n",
    "_drafts/unfinished.md": "---\ntitle: Unfinished\n---\nLater.\n",
    "content/posts/tides/index.md": '+++\ntitle = "Tides"\ndate = 2022-02-03T10:00:00Z\ntags = ["sea"]\nurl = "/posts/tides/"\n+++\nTwice a day.\n\n![chart](chart.png)\n',
    "content/posts/wip.md": "---\ntitle: Work in progress\ndraft: true\n---\nSoon.\n",
    "assets/boats.png": await png(),
    "content/posts/tides/chart.png": await png(),
    "Gemfile": "source 'https://rubygems.org'\n",
  };
  const posts: [sourceId: string, slug: string, status: Status][] = [
    ["markdown:_posts/2021-03-04-harbour-notes.md", "harbour-notes", "published"],
    ["markdown:_posts/2099-01-01-from-the-future.md", "from-the-future", "scheduled"],
    ["markdown:_drafts/unfinished.md", "unfinished", "draft"],
    ["markdown:content/posts/tides/index.md", "tides", "published"],
    ["markdown:content/posts/wip.md", "wip", "draft"],
  ];
  const { account, done } = await importAndCheck(
    await zipOf(files),
    {
      statuses: countBy(posts.map(([, , status]) => status)),
      slugs: new Map(posts.map(([sourceId, slug]) => [sourceId, slug])),
      skippedByKind: { file: 1 },
      permalinks: [
        ["/2021/03/harbour-notes/", "harbour-notes"],
        ["/posts/tides/", "tides"],
      ],
    },
    "https://old.example.com",
  );
  // One image: the two files are the same picture, stored once.
  expect(done.report).toMatchObject({ images: 1, failedImages: 0 });
  const image = await db().image.findFirstOrThrow({ where: { userId: account.id } });
  for (const slug of ["harbour-notes", "tides"]) {
    const { content } = await db().blog.findFirstOrThrow({ where: { userId: account.id, blogSlug: slug } });
    expect(content).toMatch(new RegExp(`!\\[\\w+\\]\\(/images/${image.id}/[^)]+\\)`));
  }
});
