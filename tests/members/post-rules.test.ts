import { beforeAll, describe, expect, it } from "vitest";
import type { Role } from "~/shared/roles";
import { call, createTestAccount, db, seedBlogs, type TestAccount } from "../support/api";
import { signIn, trpc, type TrpcAnswer } from "../support/dashboard";
import { addTestMember, type TestMember } from "../support/members";

/**
 * The posts' own rule (docs/teams.md, Roles; src/server/blogs/blog-access.ts): an author writes,
 * publishes and deletes the posts they are an author of; a contributor writes their own drafts
 * and never publishes, schedules or emails one, nor deletes a published one; an editor and up
 * change every post; a key acts for the publication, whoever's post it is. Each case runs against
 * posts seeded for it, over /api/trpc as a member of each role, and the refused ones leave the post
 * as it was.
 */

let publication: TestAccount;
const members = {} as Record<"editor" | "author" | "otherAuthor" | "contributor", TestMember & { cookie: string }>;

beforeAll(async () => {
  publication = await createTestAccount("enterprise");
  const roles: Record<keyof typeof members, Role> = { editor: "editor", author: "author", otherAuthor: "author", contributor: "contributor" };
  for (const [name, role] of Object.entries(roles) as [keyof typeof members, Role][]) {
    const member = await addTestMember(publication.id, role);
    members[name] = { ...member, cookie: await signIn(member) };
  }
});

type PostKind = "draft" | "published" | "scheduled";

/** A post of `author` (a member's user id): a draft, a public post, or a scheduled draft. */
async function postOf(author: string, kind: PostKind = "draft"): Promise<string> {
  const [id] = (await seedBlogs(publication.id, [{ title: `A ${kind} post`, isPublic: kind === "published" }])) as [string];
  const publishAt = kind === "scheduled" ? new Date(Date.now() + 86_400_000) : undefined;
  await db().blog.update({ where: { id }, data: { authors: [author], ...(publishAt && { publishAt }) } });
  return id;
}

const apiCodeOf = (answer: TrpcAnswer): string | undefined => answer.body?.error?.data?.apiCode;

function expectRefused(answer: TrpcAnswer, message: string, field?: string) {
  expect({ status: answer.status, apiCode: apiCodeOf(answer), message: answer.body?.error?.message }).toEqual({
    status: 403,
    apiCode: "INSUFFICIENT_PERMISSIONS",
    message,
  });
  if (field) expect(answer.body.error.data.field).toBe(field);
}

function expectAllowed(answer: TrpcAnswer) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
}

async function snapshot(id: string) {
  return db().blog.findUnique({ where: { id }, select: { title: true, isPublic: true, publishAt: true, emailSubscribers: true, updatedAt: true } });
}

/** Runs a refused attempt and checks the post did not change. */
async function refusedAndUnchanged(id: string, attempt: () => Promise<TrpcAnswer>, message: string, field?: string) {
  const before = await snapshot(id);
  expectRefused(await attempt(), message, field);
  expect(await snapshot(id)).toEqual(before);
}

describe("an author", () => {
  it("writes, publishes, schedules, emails and deletes their own posts", async () => {
    const { cookie, userId } = members.author;
    const own = await postOf(userId);
    expectAllowed(await trpc(cookie, "blogs.patch", { blogId: own, title: "Mine, rewritten" }));
    expectAllowed(await trpc(cookie, "blogs.patch", { blogId: own, publishAt: new Date(Date.now() + 3_600_000).toISOString() }));
    expectAllowed(await trpc(cookie, "blogs.patch", { blogId: own, isPublic: true, emailSubscribers: true }));
    expect(await snapshot(own)).toMatchObject({ title: "Mine, rewritten", isPublic: true, emailSubscribers: true });
    expectAllowed(await trpc(cookie, "blogs.delete", { blogId: own }));
    expect(await snapshot(own)).toBeNull();
  });

  it("creates posts, and reads every post of the publication", async () => {
    const { cookie } = members.author;
    expect((await trpc(cookie, "blogs.create", { title: "An author's new post", isPublic: true })).status).toBe(200);
    const others = await postOf(members.otherAuthor.userId);
    expectAllowed(await trpc(cookie, "blogs.get", { blogId: others }));
  });

  it("may not change, publish, restore, share or delete another member's post", async () => {
    const { cookie } = members.author;
    const others = await postOf(members.otherAuthor.userId);
    const message = "An author may only change their own posts";
    await refusedAndUnchanged(others, () => trpc(cookie, "blogs.patch", { blogId: others, title: "Taken over" }), message);
    await refusedAndUnchanged(others, () => trpc(cookie, "blogs.update", { blogId: others, isPublic: true }), message);
    await refusedAndUnchanged(others, () => trpc(cookie, "blogs.editor.update", { blogId: others, title: "Taken over", editSession: "s1" }), message);
    const revision = (await db().blogRevision.findFirstOrThrow({ where: { blogId: others }, select: { id: true } })).id;
    await refusedAndUnchanged(others, () => trpc(cookie, "blogs.revisions.restore", { blogId: others, revisionId: revision }), message);
    expectRefused(await trpc(cookie, "blogs.previews.create", { blogId: others }), message);
    await refusedAndUnchanged(others, () => trpc(cookie, "blogs.delete", { blogId: others }), "An author may only delete their own posts");
  });
});

describe("a contributor", () => {
  it("writes and deletes their own drafts, and shares them by preview link", async () => {
    const { cookie, userId } = members.contributor;
    const draft = await postOf(userId);
    expectAllowed(await trpc(cookie, "blogs.patch", { blogId: draft, title: "A better draft", isPublic: false, publishAt: null, emailSubscribers: false }));
    expectAllowed(await trpc(cookie, "blogs.previews.create", { blogId: draft }));
    expect(await snapshot(draft)).toMatchObject({ title: "A better draft", isPublic: false });
    expectAllowed(await trpc(cookie, "blogs.delete", { blogId: draft }));
    expect(await snapshot(draft)).toBeNull();
  });

  it("creates drafts, never public, scheduled or emailed posts", async () => {
    const { cookie } = members.contributor;
    expect((await trpc(cookie, "blogs.create", { title: "A contributor's draft" })).status).toBe(200);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
    for (const [fields, message, field] of [
      [{ isPublic: true }, "A contributor cannot publish a post: submit the draft for review instead", "isPublic"],
      [{ publishAt: tomorrow }, "A contributor cannot schedule a post", "publishAt"],
      [{ emailSubscribers: true }, "A contributor cannot email a post to subscribers", "emailSubscribers"],
    ] as const) {
      const title = `Refused ${field}`;
      expectRefused(await trpc(cookie, "blogs.create", { title, ...fields }), message, field);
      expectRefused(await trpc(cookie, "blogs.editor.create", { title, editSession: "s2", ...fields }), message, field);
      expect(await db().blog.count({ where: { userId: publication.id, title } })).toBe(0);
    }
  });

  it("may not publish, schedule or email their own draft", async () => {
    const { cookie, userId } = members.contributor;
    const draft = await postOf(userId);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
    await refusedAndUnchanged(draft, () => trpc(cookie, "blogs.patch", { blogId: draft, isPublic: true }), "A contributor cannot publish a post: submit the draft for review instead", "isPublic");
    await refusedAndUnchanged(draft, () => trpc(cookie, "blogs.patch", { blogId: draft, publishAt: tomorrow }), "A contributor cannot schedule a post", "publishAt");
    await refusedAndUnchanged(draft, () => trpc(cookie, "blogs.update", { blogId: draft, emailSubscribers: true }), "A contributor cannot email a post to subscribers", "emailSubscribers");
  });

  it("may not change their post once public or scheduled, nor delete it once published", async () => {
    const { cookie, userId } = members.contributor;
    const published = await postOf(userId, "published");
    const scheduled = await postOf(userId, "scheduled");
    const message = "A contributor may only change drafts: this post is public, scheduled or has been published";
    await refusedAndUnchanged(published, () => trpc(cookie, "blogs.patch", { blogId: published, title: "Changed after publication" }), message);
    await refusedAndUnchanged(published, () => trpc(cookie, "blogs.patch", { blogId: published, isPublic: false }), message);
    await refusedAndUnchanged(scheduled, () => trpc(cookie, "blogs.patch", { blogId: scheduled, title: "Changed before it goes out" }), message);
    await refusedAndUnchanged(published, () => trpc(cookie, "blogs.delete", { blogId: published }), "A contributor cannot delete a published post");
  });

  it("may not touch another member's draft", async () => {
    const { cookie } = members.contributor;
    const others = await postOf(members.author.userId);
    await refusedAndUnchanged(others, () => trpc(cookie, "blogs.patch", { blogId: others, title: "Taken over" }), "A contributor may only change their own drafts");
    await refusedAndUnchanged(others, () => trpc(cookie, "blogs.delete", { blogId: others }), "A contributor may only delete their own drafts");
  });
});

describe("an editor and an API key", () => {
  it("change, publish and delete every post, whoever wrote it", async () => {
    const { cookie } = members.editor;
    const contributorsDraft = await postOf(members.contributor.userId);
    expectAllowed(await trpc(cookie, "blogs.patch", { blogId: contributorsDraft, isPublic: true, emailSubscribers: true }));
    expect(await snapshot(contributorsDraft)).toMatchObject({ isPublic: true, emailSubscribers: true });
    expectAllowed(await trpc(cookie, "blogs.delete", { blogId: contributorsDraft }));

    const authorsPost = await postOf(members.author.userId, "published");
    const answer = await call(`/blogs/${authorsPost}`, { key: publication.key, method: "PATCH", headers: { "content-type": "application/json" }, body: JSON.stringify({ title: "Edited by a key" }) });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect((await call(`/blogs/${authorsPost}`, { key: publication.key, method: "DELETE" })).status).toBe(200);
  });
});

describe("a post that does not exist", () => {
  it("is not found for an author, as for everyone, rather than refused", async () => {
    const answer = await trpc(members.author.cookie, "blogs.patch", { blogId: "no-such-post", title: "x" });
    expect({ status: answer.status, apiCode: apiCodeOf(answer) }).toEqual({ status: 404, apiCode: "RESOURCE_NOT_FOUND" });
  });
});
