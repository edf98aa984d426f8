// A contributor's "Submit for review" (docs/authors.md, Review): one of a draft's authors marks it
// in review (blog.inReviewAt) and the publication's editors, administrators and owner are emailed
// through the email jobs; only its authors may, only a draft; publishing or scheduling it clears
// the mark. The dashboard reads the marks from blogs.review.list.
import { beforeAll, describe, expect, it } from "vitest";
import { call, db } from "../support/api";
import { emailsTo, waitForEmails } from "../support/mailbox";
import { expectSuccess } from "../api/expect";
import { createTeam, dataOf, trpc, type TeamMember } from "./team";

let owner: TeamMember;
let administrator: TeamMember;
let editor: TeamMember;
let author: TeamMember;
let contributor: TeamMember;

beforeAll(async () => {
  ({ owner, members: { administrator, editor, author, contributor } } = await createTeam(["administrator", "editor", "author", "contributor"] as const));
});

/** A draft written by `member` in the dashboard (they are its author). */
async function draftBy(member: TeamMember, title: string): Promise<string> {
  return dataOf(await trpc(member.cookie, "blogs.editor.create", { title, content: "Words." })).data.blog.id;
}

const inReviewAt = async (id: string) => (await db().blog.findUniqueOrThrow({ where: { id }, select: { inReviewAt: true } })).inReviewAt;
const marked = async (member: TeamMember) => (dataOf(await trpc(member.cookie, "blogs.review.list")) as { blogId: string }[]).map((mark) => mark.blogId);
const patch = (id: string, body: unknown) =>
  call(`/blogs/${id}`, { method: "PATCH", key: owner.key, headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

describe("Submit for review", () => {
  it("marks the draft and emails the editors, administrators and owner (not the submitter, nor authors and contributors)", async () => {
    const id = await draftBy(contributor, "Please review");
    const before = Date.now();
    const answer = dataOf(await trpc(contributor.cookie, "blogs.review.submit", { blogId: id }));
    expect(answer.blogId).toBe(id);
    const at = await inReviewAt(id);
    expect(at!.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(answer.inReviewAt).toBe(at!.toISOString());
    expect(await marked(editor)).toContain(id);
    expect(await marked(contributor)).toContain(id);

    for (const reviewer of [owner, administrator, editor]) {
      const [email] = await waitForEmails(reviewer.email);
      expect(email!.subject).toBe("Review requested: Please review");
      expect(email!.text).toContain("submitted “Please review” for review");
      expect(email!.links.some((link) => link.endsWith(`/dashboard/blogs/${id}`))).toBe(true);
    }
    // The send job has run for the others: none went to the submitter or the other writers.
    for (const writer of [contributor, author]) expect(await emailsTo(writer.email)).toEqual([]);

    // Again while in review: the same mark, no second email.
    expect(dataOf(await trpc(contributor.cookie, "blogs.review.submit", { blogId: id })).inReviewAt).toBe(answer.inReviewAt);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await emailsTo(editor.email)).toHaveLength(1);
  });

  it("is only for the draft's authors", async () => {
    const id = await draftBy(contributor, "Not yours");
    const refused = await trpc(author.cookie, "blogs.review.submit", { blogId: id });
    expect(refused.status).toBe(403);
    expect(refused.body.error.data.apiCode).toBe("INSUFFICIENT_PERMISSIONS");
    expect(await inReviewAt(id)).toBeNull();
    // Made a co-author, they may.
    expectSuccess(await patch(id, { authors: [contributor.userId, author.userId] }));
    expect(dataOf(await trpc(author.cookie, "blogs.review.submit", { blogId: id })).blogId).toBe(id);
  });

  it("is refused for a post that is not a draft, and for another publication's blog", async () => {
    const published = await draftBy(contributor, "Already out");
    expectSuccess(await patch(published, { isPublic: true }));
    const scheduled = await draftBy(contributor, "Later");
    expectSuccess(await patch(scheduled, { publishAt: new Date(Date.now() + 3_600_000).toISOString() }));
    for (const id of [published, scheduled]) {
      const refused = await trpc(contributor.cookie, "blogs.review.submit", { blogId: id });
      expect(refused.status).toBe(409);
      expect(refused.body.error.data.apiCode).toBe("RESOURCE_CONFLICT");
      expect(refused.body.error.message).toBe("Only a draft can be submitted for review");
      expect(await inReviewAt(id)).toBeNull();
    }
    const { id: otherBlog } = await db().blog.create({ data: { userId: contributor.id, title: "Own publication", blogSlug: "own-publication" } });
    const foreign = await trpc(contributor.cookie, "blogs.review.submit", { blogId: otherBlog });
    expect(foreign.body.error.data.apiCode).toBe("RESOURCE_NOT_FOUND");
    expect(await inReviewAt(otherBlog)).toBeNull();
  });

  it("ends when the post is published or scheduled", async () => {
    const toPublish = await draftBy(contributor, "To publish");
    const toSchedule = await draftBy(contributor, "To schedule");
    for (const id of [toPublish, toSchedule]) dataOf(await trpc(contributor.cookie, "blogs.review.submit", { blogId: id }));
    expect(await marked(owner)).toEqual(expect.arrayContaining([toPublish, toSchedule]));

    expectSuccess(await patch(toPublish, { isPublic: true }));
    dataOf(await trpc(editor.cookie, "blogs.editor.update", { blogId: toSchedule, publishAt: new Date(Date.now() + 3_600_000).toISOString() }));
    expect(await inReviewAt(toPublish)).toBeNull();
    expect(await inReviewAt(toSchedule)).toBeNull();
    const still = await marked(owner);
    expect(still).not.toContain(toPublish);
    expect(still).not.toContain(toSchedule);
    // Unpublished again, it is a plain draft: not back in review.
    expectSuccess(await patch(toPublish, { isPublic: false }));
    expect(await inReviewAt(toPublish)).toBeNull();
  });
});
