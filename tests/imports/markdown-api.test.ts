import { Readable } from "node:stream";
import { beforeAll, describe, expect, it } from "vitest";
import { apiBaseUrl, call, createTestAccount, db, seedBlogs, type TestAccount } from "../support/api";
import { png } from "../images/fixtures";
import { signIn, trpc } from "../support/dashboard";
import { MAX_IMPORT_BYTES } from "~/shared/imports";
import { zipOf } from "./sources";
import { importFile, postImport, readOnlyKey, untilFinished } from "./support";

let owner: TestAccount;
let other: TestAccount;

beforeAll(async () => {
  [owner, other] = await Promise.all([createTestAccount(), createTestAccount()]);
});

const TAGS = Array.from({ length: 12 }, (_, i) => `tag${i + 1}`);

async function jekyllZip(): Promise<Buffer> {
  return zipOf({
    "_posts/2021-03-04-hello-world.md": `---\ntitle: Hello, world\ntags: [${TAGS.join(", ")}]\ndescription: The first one\n---\n\nHi there.\n\n![a photo](../assets/photo.png)\n`,
    "_posts/2022-01-02-second.markdown": "---\ntitle: Second\ncategories: notes\n---\nBody two.\n",
    "_drafts/unfinished.md": "---\ntitle: Not yet\n---\nDraft.\n",
    "assets/photo.png": await png(),
    "Gemfile": "source 'https://rubygems.org'\n",
  });
}

describe("an import with oldUrl", () => {
  it("answers 301 from /{handle}/{old path} to the post, and undo deletes what it made", async () => {
    const account = await createTestAccount();
    const zip = await zipOf({
      "_posts/2020-05-01-moved.md": "---\ntitle: Moved\npermalink: /blog/2020/05/moved/\n---\nHere now.\n",
      "_posts/2020-05-02-other.md": "---\ntitle: Other\n---\n![pic](photo.png)\n",
      "_posts/photo.png": await png(),
    });
    const done = await importFile(account.key, zip, { oldUrl: "https://old.example.com/blog/" });
    expect(done.status).toBe("done");
    for (const path of ["/2020/05/moved", "/2020/05/moved?utm=x", "/2020/%305/moved"]) {
      const response = await fetch(new URL(`/${account.handle}${path}`, apiBaseUrl()), { redirect: "manual" });
      expect(response.status, path).toBe(301);
      expect(response.headers.get("location")).toBe(`/${account.handle}/moved`);
    }
    // With a trailing slash, the app's own 308 drops it first.
    expect((await fetch(new URL(`/${account.handle}/2020/05/moved/`, apiBaseUrl()))).url).toBe(new URL(`/${account.handle}/moved`, apiBaseUrl()).toString());
    expect((await fetch(new URL(`/${account.handle}/2020/05/nothing`, apiBaseUrl()), { redirect: "manual" })).status).toBe(404);

    const undone = await trpc(await signIn(account), "imports.undo", { importId: done.id });
    expect(undone.status).toBe(200);
    expect(await db().import.findUniqueOrThrow({ where: { id: done.id } })).toMatchObject({ undoneAt: expect.any(Date) });
    expect(await db().blog.count({ where: { userId: account.id } })).toBe(0);
    expect(await db().image.count({ where: { userId: account.id } })).toBe(0);
    expect(await db().importedPermalink.count({ where: { userId: account.id } })).toBe(0);
  });
});

describe("POST /api/v1/imports with a Markdown zip", () => {
  it("answers 202 queued, then GET shows it done with its report", async () => {
    const file = await jekyllZip();
    const created = await postImport(owner.key, file);
    expect(created.status).toBe(202);
    const queued = (created.json as { data: { import: { id: string; status: string; format: string } } }).data.import;
    expect(queued).toMatchObject({ status: "queued", format: "markdown" });
    const done = await untilFinished(owner.key, queued.id);
    expect(done.status, done.error ?? "").toBe("done");
    expect(done.report).toMatchObject({ imported: 3, alreadyImported: 0, skipped: 1, skippedByKind: { file: 1 }, images: 1, failedImages: 0 });
    expect(done.progress).toEqual({ processed: 4, total: 4 });

    const blogs = await db().blog.findMany({ where: { importId: queued.id }, orderBy: { blogSlug: "asc" } });
    expect(blogs.map((blog) => [blog.blogSlug, blog.isPublic])).toEqual([
      ["hello-world", true],
      ["second", true],
      ["unfinished", false],
    ]);
    const hello = blogs[0]!;
    expect(hello.publishedAt?.toISOString()).toBe("2021-03-04T00:00:00.000Z");
    expect(hello.tags).toEqual(TAGS.slice(0, 10));
    expect(hello.content).toMatch(/!\[a photo\]\(\/images\/[0-9a-f]{32}\/[^)]+\)/);
    expect(done.report.changedItems).toContainEqual(expect.objectContaining({ blogId: hello.id, change: "tags", detail: expect.stringContaining("tag11, tag12") }));
    const image = await db().image.findFirstOrThrow({ where: { importId: queued.id } });
    expect(hello.content).toContain(`/images/${image.id}/`);

    // The same file again: nothing created, nothing changed.
    const again = await importFile(owner.key, file);
    expect(again.report).toMatchObject({ imported: 0, alreadyImported: 3 });
    const after = await db().blog.findMany({ where: { userId: owner.id }, orderBy: { blogSlug: "asc" } });
    expect(after.map((blog) => [blog.id, blog.updatedAt.toISOString()])).toEqual(blogs.map((blog) => [blog.id, blog.updatedAt.toISOString()]));
  });

  it("suffixes a taken slug and reports it", async () => {
    const account = await createTestAccount();
    await seedBlogs(account.id, [{ blogSlug: "taken" }]);
    const done = await importFile(account.key, await zipOf({ "posts/taken.md": "---\ntitle: Taken\n---\nx\n" }));
    expect(done.report.imported).toBe(1);
    expect(done.report.changedItems).toEqual([expect.objectContaining({ change: "slug", detail: "The slug taken was taken: taken-2" })]);
  });

  it("refuses an oldUrl that is not an absolute http(s) URL", async () => {
    const account = await createTestAccount();
    const created = await postImport(account.key, await zipOf({ "a.md": "# A\n" }), { oldUrl: "not a url" });
    expect(created.status).toBe(400);
    expect(created.json).toMatchObject({ error: { code: "INVALID_PARAMETER" } });
  });

  it("refuses a file that is no export, naming the formats read", async () => {
    const { status, json } = await postImport(owner.key, Buffer.from("just some text\n"), { name: "notes.txt" });
    expect(status).toBe(400);
    expect(JSON.stringify(json)).toContain("WordPress export");
  });

  it("refuses an archive with a path escaping it, and creates nothing", async () => {
    const account = await createTestAccount();
    // yazl refuses "../" names: the name is patched in the zip's bytes (same length, in both headers).
    const zip = await zipOf({ "aa/x.md": "# X\n" });
    const escaping = Buffer.from(zip.toString("latin1").replaceAll("aa/x.md", "../x.md"), "latin1");
    const { status, json } = await postImport(account.key, escaping);
    expect(status).toBe(400);
    expect(JSON.stringify(json)).toMatch(/escape|relative path/);
    expect(await db().blog.count({ where: { userId: account.id } })).toBe(0);
  });

  it("answers 413 past the bound without reading it all", async () => {
    let sent = 0;
    const boundary = "import-bound";
    const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.zip"\r\nContent-Type: application/zip\r\n\r\n`);
    const block = Buffer.alloc(1024 * 1024, 0x61);
    const body = Readable.from(
      (function* () {
        yield head;
        while (sent <= MAX_IMPORT_BYTES) {
          sent += block.length;
          yield block;
        }
        yield Buffer.from(`\r\n--${boundary}--\r\n`);
      })(),
    );
    const response = await fetch(new URL("/api/v1/imports", apiBaseUrl()), {
      method: "POST",
      headers: { "x-api-key": owner.key, "content-type": `multipart/form-data; boundary=${boundary}` },
      body: Readable.toWeb(body) as ReadableStream,
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: { code: "PAYLOAD_TOO_LARGE" } });
  });

  it("needs write:blogs; another account's import is not found", async () => {
    const key = await readOnlyKey(owner.id);
    const refused = await postImport(key, await zipOf({ "a.md": "# A\n" }));
    expect(refused.status).toBe(403);
    const created = await postImport(owner.key, await zipOf({ "b.md": "# B\n" }));
    const id = (created.json as { data: { import: { id: string } } }).data.import.id;
    expect((await call(`/imports/${id}`, { key: other.key })).status).toBe(404);
    expect((await call(`/imports/${id}`, { key })).status).toBe(200);
  });
});
