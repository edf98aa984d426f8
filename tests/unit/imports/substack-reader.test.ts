import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { ImportFileError, type SourceItem, type SourcePost } from "~/server/imports/source";
import { openSubstackExport } from "~/server/imports/substack/read";
import { FIXTURES, substackEntries, substackRows } from "../../imports/sources";
import { writeZip } from "./zip-fixture";

const substackZip = async (root = "") => writeZip(await substackEntries(root));

type Row = Record<string, string>;
let rows: Row[];
let emails: Row[];
let items: SourceItem[];
let total: number | null;
const post = (slug: string) => items.flatMap((item) => (item.kind === "post" ? [item.post] : [])).find((each) => each.slug === slug) as SourcePost;

beforeAll(async () => {
  ({ posts: rows, emails } = await substackRows());
  const source = await openSubstackExport(await substackZip());
  total = source.total;
  items = [];
  for await (const item of source.items()) items.push(item);
  await source.close();
});

describe("Substack export", () => {
  test("every csv row is an item: posts by status, threads and pages skipped, a missing body skipped with its reason", () => {
    expect(total).toBe(rows.length + emails.length);
    expect(items).toHaveLength(rows.length + emails.length);
    const kept = rows.filter((row) => row.type !== "thread" && row.type !== "page" && row.post_id !== "123408.lost-body");
    const published = kept.filter((row) => row.is_published === "true" && row.audience !== "only_paid");
    const posts = items.flatMap((item) => (item.kind === "post" ? [item.post] : []));
    expect(posts.map((each) => each.sourceId)).toEqual(kept.map((row) => `substack:${row.post_id!.split(".")[0]}`));
    expect(posts.filter((each) => each.status === "published")).toHaveLength(published.length);
    expect(posts.filter((each) => each.status === "draft")).toHaveLength(kept.length - published.length);
    const skipped = items.flatMap((item) => (item.kind === "skipped" ? [item] : []));
    expect(skipped.map((each) => [each.sourceId, each.what])).toEqual([
      ["substack:123404", "thread"],
      ["substack:123407", "page"],
      ["substack:123408", "post"],
    ]);
    expect(skipped[2]!.reason).toMatch(/missing/);
  });

  test("slug from post_id, /p/<slug> as the old path, entities in titles decoded, subtitle as excerpt", () => {
    expect(post("plain-text")).toMatchObject({
      sourceId: "substack:123401",
      title: "Plain Text",
      excerpt: "“This quote’s rather short”",
      oldPath: "/p/plain-text",
      status: "published",
      date: new Date("2019-07-26T20:48:19.814Z"),
    });
    expect(post("tide-tables").title).toBe("Tide tables, explained");
    expect(post("draft-text")).toMatchObject({ status: "draft", date: null });
  });

  test("subscribe, share and comment buttons and widgets left out with a note", () => {
    const plain = post("plain-text");
    expect(plain.markdown).toBe(
      "## Lorem Ipsum\n\nLorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt.\n\nDolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco.\n\n---",
    );
    expect(plain.contentNotes).toEqual(["a Subscribe button was left out", "a Subscribe button was left out", "a Share button was left out"]);
    expect(post("tide-tables").contentNotes).toContain("a Leave a comment button was left out");
  });

  test("captions and footnotes kept: the image at its original address, footnotes as Markdown footnotes", () => {
    const { markdown, contentNotes } = post("tide-tables");
    expect(markdown).toBe(
      [
        "Tides follow the moon[^1], mostly.",
        "![Low tide at the harbour](https://substack-post-media.s3.amazonaws.com/public/images/abc_1200x800.jpeg)",
        "_Low tide at the [harbour](https://example.com/harbour)_",
        "- Spring tides are the biggest.[^2]\n- Neap tides are the smallest.",
        "[^1]: And a little the sun.",
        "[^2]: At new and full moon.",
      ].join("\n\n"),
    );
    expect(contentNotes).toContain("the paywall marker was left out: the whole post is public here");
  });

  test("a podcast keeps its audio as a link at the top; its YouTube frame becomes a link", () => {
    const pod = post("harbour-pod");
    expect(pod.markdown.startsWith("[Listen to the episode](https://example.com/my-audio/file.mp3)\n\n## Podcast Episode")).toBe(true);
    expect(pod.markdown).toContain("[YouTube video](https://www.youtube.com/watch?v=dQw4w9WgXcQ)");
    expect(pod.contentNotes[0]).toMatch(/podcast episode's audio/);
  });

  test("a paid-only post is a draft with a note", () => {
    const paid = post("paid-only");
    expect(paid.status).toBe("draft");
    expect(paid.contentNotes[0]).toMatch(/paying subscribers/);
    expect(paid.markdown).toBe("Public text\n\nPremium text");
  });

  test("the email list: every row a subscriber, unsubscribed when its email is disabled, with its date", () => {
    const subscribers = items.flatMap((item) => (item.kind === "subscriber" ? [item.subscriber] : []));
    expect(subscribers.map((each) => each.email)).toEqual(emails.map((row) => row.email));
    for (const row of emails) {
      const subscriber = subscribers.find((each) => each.email === row.email)!;
      expect(subscriber.status).toBe(row.email_disabled === "true" ? "unsubscribed" : "active");
      expect(subscriber.createdAt).toEqual(new Date(row.created_at!));
    }
    expect(subscribers.filter((each) => each.status === "unsubscribed")).toHaveLength(1);
  });

  test("a zip that nests the export in a folder reads the same", async () => {
    const source = await openSubstackExport(await substackZip("harbour-export/"));
    const nested: SourceItem[] = [];
    for await (const item of source.items()) nested.push(item);
    expect(nested.map((item) => item.kind)).toEqual(items.map((item) => item.kind));
  });
});

describe("Substack hostile input", () => {
  const refused = async (path: string, message: RegExp) => {
    const error: unknown = await openSubstackExport(path).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ImportFileError);
    expect((error as Error).message).toMatch(message);
  };
  test("not a zip", async () => refused(join(FIXTURES, "substack", "posts.csv"), /not a readable zip/));
  test("a zip without posts.csv", async () => refused(await writeZip([["email_list.x.csv", "email\na@example.com\n"]]), /no posts.csv/));
  test("a csv record beyond the bound", async () => refused(await writeZip([["posts.csv", `post_id,title\n1.a,"${"x".repeat(1024 * 1024 + 10)}"\n`]]), /not a readable CSV/));
  test("a post_id naming another entry is not followed", async () => {
    const path = await writeZip([
      ["posts.csv", "post_id,post_date,is_published,type,audience,title\n../secret,2020-01-01,true,newsletter,everyone,Sneaky\n"],
      ["secret.html", "<p>not a post</p>"],
    ]);
    const source = await openSubstackExport(path);
    const read: SourceItem[] = [];
    for await (const item of source.items()) read.push(item);
    expect(read).toEqual([expect.objectContaining({ kind: "skipped", what: "post" })]);
  });
});
