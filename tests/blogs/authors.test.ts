// A blog's authors (docs/authors.md, Authors; docs/api.md, the blog object): member user ids, the
// primary first, the creator by default (the publication's owner for an API key), writable on
// create and update by both doors, each a current member; the webhook payloads and the ETag carry
// them, as every answer does (one definition: blog_api_view).
import { beforeAll, describe, expect, it } from "vitest";
import { createWebhookEndpoint } from "~/server/webhooks/endpoints";
import { call, createTestAccount, db, type TestAccount } from "../support/api";
import { expectError, expectSuccess } from "../api/expect";
import { createTeam, dataOf, trpc, type TeamMember } from "./team";

let owner: TeamMember;
let editor: TeamMember;
let author: TeamMember;
let stranger: TestAccount;

const json = (method: string, body: unknown, headers: Record<string, string> = {}) => ({
  method,
  key: owner.key,
  headers: { "content-type": "application/json", ...headers },
  body: JSON.stringify(body),
});
const create = (body: Record<string, unknown>) => call("/blogs", json("POST", body));
const patch = (id: string, body: unknown, headers?: Record<string, string>) => call(`/blogs/${id}`, json("PATCH", body, headers));

beforeAll(async () => {
  ({ owner, members: { editor, author } } = await createTeam(["editor", "author"] as const));
  stranger = await createTestAccount();
});

describe("a blog's authors", () => {
  it("default to the publication's owner for an API key, in every answer", async () => {
    const blog = expectSuccess(await create({ title: "By a key" }), 201).blog;
    expect(blog.authors).toEqual([owner.userId]);
    expect(expectSuccess(await call(`/blogs/${blog.id}`, { key: owner.key })).blog.authors).toEqual([owner.userId]);
    const listed = expectSuccess(await call(`/blogs?q=${encodeURIComponent("By a key")}`, { key: owner.key })).blogs;
    expect(listed.map((b: { authors: string[] }) => b.authors)).toEqual([[owner.userId]]);
    expect((await db().blog.findUniqueOrThrow({ where: { id: blog.id } })).authors).toEqual([owner.userId]);
  });

  it("default to the member who creates the blog in the dashboard", async () => {
    const created = dataOf(await trpc(editor.cookie, "blogs.editor.create", { title: "By the editor" })).data.blog;
    expect(created.authors).toEqual([editor.userId]);
    expect(created.id).toBeTruthy();
    expect((await db().blog.findUniqueOrThrow({ where: { id: created.id } })).userId).toBe(owner.id);
  });

  it("are written as given, the primary first, on create and update by both doors; null leaves them as they are", async () => {
    const blog = expectSuccess(await create({ title: "Two authors", authors: [author.userId, owner.userId] }), 201).blog;
    expect(blog.authors).toEqual([author.userId, owner.userId]);
    const reordered = expectSuccess(await patch(blog.id, { authors: [owner.userId, author.userId] })).blog;
    expect(reordered.authors).toEqual([owner.userId, author.userId]);
    const untouched = expectSuccess(await patch(blog.id, { title: "Still two", authors: null })).blog;
    expect(untouched).toMatchObject({ title: "Still two", authors: [owner.userId, author.userId] });
    const byDashboard = dataOf(await trpc(editor.cookie, "blogs.editor.update", { blogId: blog.id, authors: [editor.userId] })).data.blog;
    expect(byDashboard.authors).toEqual([editor.userId]);
  });

  it("must be 1 to 10 distinct current members of the publication: else a 400 naming authors, nothing written", async () => {
    const blog = expectSuccess(await create({ title: "Guarded" }), 201).blog;
    const before = await db().blog.count({ where: { userId: owner.id } });
    const tooMany = Array.from({ length: 11 }, (_, i) => `user-${i}`);
    for (const authors of [[stranger.id], [owner.userId, stranger.id], [], [owner.userId, owner.userId], tooMany, "owner", [42], [""]]) {
      const refused = expectError(await create({ title: "Refused", authors }), 400, "INVALID_PARAMETER");
      // An item of the wrong kind is named by its place (authors.0), as tags' are.
      expect(refused.message).toMatch(/^Invalid parameter: authors(\.\d+)?$/);
      expect(refused.details).toContain("authors must be");
      expectError(await patch(blog.id, { authors }), 400, "INVALID_PARAMETER");
    }
    expect(await db().blog.count({ where: { userId: owner.id } })).toBe(before);
    expect((await db().blog.findUniqueOrThrow({ where: { id: blog.id } })).authors).toEqual([owner.userId]);
    const byDashboard = await trpc(editor.cookie, "blogs.editor.update", { blogId: blog.id, authors: [stranger.id] });
    expect(byDashboard.body.error.data).toMatchObject({ apiCode: "INVALID_PARAMETER", field: "authors" });
  });

  it("travel in the webhook payloads", async () => {
    await createWebhookEndpoint(db(), { accountId: owner.id, url: "http://127.0.0.1:9/hooks", eventTypes: ["blog.created", "blog.updated"] });
    const blog = expectSuccess(await create({ title: "Hooked", authors: [author.userId] }), 201).blog;
    expectSuccess(await patch(blog.id, { authors: [editor.userId, author.userId] }));
    const events = (await db().webhookEvent.findMany({ where: { userId: owner.id }, orderBy: { createdAt: "asc" }, select: { type: true, data: true } })).filter(
      (event) => (event.data as { id?: string }).id === blog.id,
    );
    expect(events.map((event) => [event.type, (event.data as { authors: string[] }).authors])).toEqual([
      ["blog.created", [author.userId]],
      ["blog.updated", [editor.userId, author.userId]],
    ]);
  });

  it("change the blog's ETag: an If-Match with the old one is refused", async () => {
    const blog = expectSuccess(await create({ title: "Tagged" }), 201).blog;
    const read = await call(`/blogs/${blog.id}`, { key: owner.key });
    const etag = read.headers.get("etag")!;
    expect(etag).toBeTruthy();
    expectSuccess(await patch(blog.id, { authors: [author.userId] }, { "if-match": etag }));
    const after = (await call(`/blogs/${blog.id}`, { key: owner.key })).headers.get("etag");
    expect(after).toBeTruthy();
    expect(after).not.toBe(etag);
    expect((await call(`/blogs/${blog.id}`, { key: owner.key, headers: { "if-none-match": etag } })).status).toBe(200);
    expectError(await patch(blog.id, { authors: [owner.userId] }, { "if-match": etag }), 412, "PRECONDITION_FAILED");
  });

  it("are listed for the editor's picker: the publication's members, the most trusted first, and who is asking", async () => {
    const choices = dataOf(await trpc(author.cookie, "blogs.authorChoices"));
    expect(choices.you).toBe(author.userId);
    expect(choices.members.map((m: { userId: string; role: string }) => [m.userId, m.role])).toEqual([
      [owner.userId, "owner"],
      [editor.userId, "editor"],
      [author.userId, "author"],
    ]);
    expect((await trpc(null, "blogs.authorChoices")).status).toBe(401);
  });
});
