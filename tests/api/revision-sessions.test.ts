// The dashboard editor's autosave over /api/trpc (src/server/blogs/change-source.ts): the saves of
// one editing session make one revision, a new session or another writer a new one, and the
// API's writes are recorded as before, one revision each. If-Match still guards every save.
import { beforeAll, describe, expect, it } from "vitest";
import { call, createTestAccount, db, type TestAccount } from "../support/api";
import { signIn, trpc } from "../support/dashboard";
import { expectSuccess } from "./expect";

let account: TestAccount;
let cookie: string;

beforeAll(async () => {
  account = await createTestAccount();
  cookie = await signIn(account);
});

const revisionsOf = async (id: string) => expectSuccess(await call(`/blogs/${id}/revisions?limit=50`, { key: account.key })).revisions;

/** Saves `changes` as the editor does, with If-Match `tag`; answers the blog and its new ETag. */
async function autosave(blogId: string, editSession: string, changes: Record<string, unknown>, tag?: string) {
  return trpc(cookie, "blogs.editor.update", { blogId, editSession, ...changes }, { headers: tag ? { "if-match": tag } : {} });
}

describe("an editing session", () => {
  it("creates its draft and folds 20 autosaves into that one revision, with the last text", async () => {
    const created = await trpc(cookie, "blogs.editor.create", { title: "Autosaved", editSession: "session-a" });
    expect(created.status).toBe(200);
    const blogId = created.body.result.data.data.blog.id;
    let tag = created.headers.get("etag")!;
    for (let i = 1; i <= 20; i++) {
      const saved = await autosave(blogId, "session-a", { content: `Draft ${i}` }, tag);
      expect(saved.status).toBe(200);
      tag = saved.headers.get("etag")!;
    }
    const revisions = await revisionsOf(blogId);
    expect(revisions).toHaveLength(1);
    expect(revisions[0]).toMatchObject({ changedBy: "owner", title: "Autosaved" });
    const full = expectSuccess(await call(`/blogs/${blogId}/revisions/${revisions[0].id}`, { key: account.key })).revision;
    expect(full.content).toBe("Draft 20");
  });

  it("adds a revision for a new session, for an API write between two saves, and for a save more than 10 minutes after", async () => {
    const created = await trpc(cookie, "blogs.editor.create", { title: "Sessions", editSession: "s1" });
    const blogId = created.body.result.data.data.blog.id;
    expect((await autosave(blogId, "s1", { content: "one" })).status).toBe(200);
    expect((await autosave(blogId, "s2", { content: "two" })).status).toBe(200);
    expect((await autosave(blogId, "s2", { description: "same session" })).status).toBe(200);
    const apiWrite = await call(`/blogs/${blogId}`, {
      method: "PATCH",
      key: account.key,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ content: "from a program" }),
    });
    expect(apiWrite.status).toBe(200);
    expect((await autosave(blogId, "s2", { content: "after the program" })).status).toBe(200);
    let revisions = await revisionsOf(blogId);
    expect(revisions.map((r: { changedBy: string }) => r.changedBy)).toEqual(["owner", "api_key", "owner", "owner"]);
    // The session's folded revision names every field it changed.
    expect(revisions[2].changedFields).toEqual(["description", "content"]);

    // Idle for longer than the window: the session's next save starts a revision of its own.
    await db().$executeRaw`UPDATE "blog_revision" SET "createdAt" = now() - interval '11 minutes' WHERE "blogId" = ${blogId}`;
    expect((await autosave(blogId, "s2", { content: "next morning" })).status).toBe(200);
    revisions = await revisionsOf(blogId);
    expect(revisions).toHaveLength(5);
  });

  it("keeps API writes at one revision each, whatever they send", async () => {
    const created = await call("/blogs", {
      method: "POST",
      key: account.key,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ title: "By a program", editSession: "not-honoured" }),
    });
    const blogId = expectSuccess(created, 201).blog.id;
    for (const content of ["a", "b", "c"]) {
      const answer = await call(`/blogs/${blogId}`, {
        method: "PATCH",
        key: account.key,
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ content, editSession: "not-honoured" }),
      });
      expect(answer.status).toBe(200);
    }
    expect(await revisionsOf(blogId)).toHaveLength(4);
  });

  it("is refused a save over a version it did not load (412), and the revision is left as it was", async () => {
    const created = await trpc(cookie, "blogs.editor.create", { title: "Guarded", editSession: "s3" });
    const blogId = created.body.result.data.data.blog.id;
    const stale = created.headers.get("etag")!;
    expect((await autosave(blogId, "s3", { content: "mine" }, stale)).status).toBe(200);
    const refused = await autosave(blogId, "s3", { content: "over a newer one" }, stale);
    expect(refused.status).toBe(412);
    const [only] = await revisionsOf(blogId);
    expect(expectSuccess(await call(`/blogs/${blogId}/revisions/${only.id}`, { key: account.key })).revision.content).toBe("mine");
  });

});
