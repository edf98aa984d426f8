import "server-only";
import type { Member } from "~/server/accounts/caller";
import { ApiError } from "~/server/api/errors";
import { DomainError } from "~/server/common/domain-error";
import type { Db } from "~/server/db";
import { emailLinkOrigin } from "~/server/email/account-emails";
import { queueEmail } from "~/server/email/queue-email";
import { withinRecipientCap } from "~/server/email/recipient-cap";
import { log } from "~/server/runtime/log";
import { ROLES, type Role } from "~/shared/roles";

/**
 * A contributor's "Submit for review" (docs/authors.md, Review): one of a draft's authors asks the
 * publication's editors to publish it. The draft is marked (blog.inReviewAt) and every editor,
 * administrator and owner but the one submitting is emailed; publishing or scheduling it clears
 * the mark (the blog_review_end trigger of the blog_authors migration).
 */

/** Who is told of a submission: the roles that may publish any post (docs/teams.md). */
export const REVIEWER_ROLES: readonly Role[] = ["owner", "administrator", "editor"];

/** A draft in review, as the dashboard marks it. */
export interface ReviewMark {
  blogId: string;
  inReviewAt: string;
}

interface SubmittedBlog {
  id: string;
  title: string;
  status: string;
  authors: string[];
  inReviewAt: Date | null;
}

/**
 * Marks the member's draft `blogId` as in review and queues the editors' emails. Refused: a blog
 * of another publication (404, as everywhere), a member who is not among its authors, a blog that
 * is not a draft. Submitting again while in review changes nothing and emails no one again.
 */
export async function submitForReview(db: Db, member: Member, blogId: string, origin: string): Promise<ReviewMark> {
  const publicationId = member.publication.id;
  const [blog] = await db.$queryRaw<SubmittedBlog[]>`
    SELECT "id", "title", "status"::text AS "status", "authors", "inReviewAt" FROM "blog" WHERE "id" = ${blogId} AND "userId" = ${publicationId}`;
  if (!blog) throw new DomainError("RESOURCE_NOT_FOUND", "Blog not found", `No blog with id ${JSON.stringify(blogId.slice(0, 100))}`);
  if (!blog.authors.includes(member.userId)) {
    throw new ApiError("INSUFFICIENT_PERMISSIONS", "Only the post's authors may submit it for review", "Ask one of its authors, or an editor to publish it");
  }
  if (blog.status !== "draft") {
    throw new DomainError("RESOURCE_CONFLICT", "Only a draft can be submitted for review", `The post is ${blog.status}`);
  }
  if (blog.inReviewAt) return { blogId: blog.id, inReviewAt: blog.inReviewAt.toISOString() };
  // Only if still a draft of theirs: a publication in between wins, and nothing is marked.
  const [marked] = await db.$queryRaw<{ inReviewAt: Date }[]>`
    UPDATE "blog" SET "inReviewAt" = now() WHERE "id" = ${blog.id} AND "status" = 'draft' AND "inReviewAt" IS NULL AND ${member.userId} = ANY ("authors")
    RETURNING "inReviewAt"`;
  if (!marked) throw new DomainError("RESOURCE_CONFLICT", "Only a draft can be submitted for review", "The post changed meanwhile: reload it");
  await emailReviewers(db, member, blog, origin);
  return { blogId: blog.id, inReviewAt: marked.inReviewAt.toISOString() };
}

interface Reviewer {
  email: string;
  name: string;
  emailVerified: boolean;
}

/**
 * One email to each editor, administrator and owner but the submitter, through the email jobs
 * (src/server/email/queue-email.ts). The post's title, the publication's and the submitter's names
 * are the members' words: written only to an address its holder has proven (docs/security.md,
 * Text in emails), and an unproven one counts against its address's cap.
 */
async function emailReviewers(db: Db, member: Member, blog: SubmittedBlog, origin: string): Promise<void> {
  const linkOrigin = emailLinkOrigin(origin);
  if (!linkOrigin) return;
  const reviewers = await db.$queryRaw<Reviewer[]>`
    SELECT u."email", u."name", u."emailVerified" FROM "member" AS m JOIN "user" AS u ON u."id" = m."userId"
    WHERE m."organizationId" = ${member.publication.id} AND m."role" = ANY (${[...REVIEWER_ROLES]}::text[]) AND m."userId" <> ${member.userId}
    ORDER BY m."createdAt", m."id"`;
  const [names] = await db.$queryRaw<{ publication: string; by: string }[]>`
    SELECT o."name" AS "publication", u."name" AS "by" FROM "organization" AS o, "user" AS u WHERE o."id" = ${member.publication.id} AND u."id" = ${member.userId}`;
  const url = `${linkOrigin}/dashboard/blogs/${encodeURIComponent(blog.id)}`;
  for (const reviewer of reviewers) {
    if (!reviewer.emailVerified && !(await withinRecipientCap(reviewer.email))) {
      log.warn({ email: { kind: "review-requested" } }, "email not sent: its address has received as many as it may for now (docs/security.md, Emails per address)");
      continue;
    }
    const words = reviewer.emailVerified ? { name: reviewer.name, publication: names?.publication, title: blog.title, by: names?.by } : {};
    await queueEmail({ kind: "review-requested", to: reviewer.email, url, ...words });
  }
}

/** The publication's drafts in review, newest first, for the dashboard's marks (list and editor). */
export async function draftsInReview(db: Db, publicationId: string): Promise<ReviewMark[]> {
  const rows = await db.$queryRaw<{ id: string; inReviewAt: Date }[]>`
    SELECT "id", "inReviewAt" FROM "blog" WHERE "userId" = ${publicationId} AND "inReviewAt" IS NOT NULL ORDER BY "inReviewAt" DESC, "id" LIMIT 1000`;
  return rows.map((row) => ({ blogId: row.id, inReviewAt: row.inReviewAt.toISOString() }));
}

/** A member as the editor's author picker lists them. */
export interface AuthorChoice {
  userId: string;
  name: string;
  role: Role;
}

/** The publication's members, the most trusted roles first, then by name: whom a blog's authors may name. */
export async function authorChoices(db: Db, publicationId: string): Promise<AuthorChoice[]> {
  const rows = await db.$queryRaw<{ userId: string; name: string; role: string }[]>`
    SELECT m."userId", u."name", m."role" FROM "member" AS m JOIN "user" AS u ON u."id" = m."userId"
    WHERE m."organizationId" = ${publicationId}
    ORDER BY array_position(${[...ROLES]}::text[], m."role"), lower(u."name"), m."userId"`;
  return rows.map((row) => ({ userId: row.userId, name: row.name, role: row.role as Role }));
}
