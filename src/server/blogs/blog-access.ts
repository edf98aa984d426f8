import "server-only";
import type { Prisma } from "~/generated/prisma/client";
import type { Caller } from "~/server/accounts/caller";
import { DomainError } from "~/server/common/domain-error";
import type { Db } from "~/server/db";
import { roleAtLeast } from "~/shared/roles";

/**
 * What an author or a contributor may do to a post, beyond what their role lets them call
 * (docs/teams.md, Roles): the rules that need the post itself. An author writes, publishes and
 * deletes the posts they are an author of (blog.authors holds their user id); a contributor writes
 * their own drafts only: never publishes, schedules or emails a post, never changes a post once it
 * is public, scheduled or has been published, never deletes a published one. Editors and up, and
 * API keys (a key acts for the publication), are not concerned: every function here returns at once
 * for them. A post the caller cannot see is left to the operation's own RESOURCE_NOT_FOUND.
 */

/** The fields of a create or a change these rules read; the others may change freely. */
export interface PostChanges {
  isPublic?: boolean;
  publishAt?: Date | string | null;
  emailSubscribers?: boolean;
  /** The post's authors (user ids), when the change names them. */
  authors?: string[];
}

interface PostState {
  authors: string[];
  isPublic: boolean;
  publishAt: Date | null;
  publishedAt: Date | null;
}

type Reader = Db | Prisma.TransactionClient;

/** The member below editor a rule applies to, or null: a key, or an editor and up. */
function restrictedMember(caller: Caller) {
  if (caller.kind !== "member" || roleAtLeast(caller.member.publication.role, "editor")) return null;
  return { userId: caller.member.userId, role: caller.member.publication.role as "author" | "contributor" };
}

function refused(message: string, field?: string): DomainError {
  return new DomainError("INSUFFICIENT_PERMISSIONS", message, undefined, field);
}

/** A contributor's change may publish, schedule or email nothing. */
function assertNoPublishing(changes: PostChanges): void {
  if (changes.isPublic === true) throw refused("A contributor cannot publish a post: submit the draft for review instead", "isPublic");
  if (changes.publishAt !== undefined && changes.publishAt !== null) throw refused("A contributor cannot schedule a post", "publishAt");
  if (changes.emailSubscribers === true) throw refused("A contributor cannot email a post to subscribers", "emailSubscribers");
}

/** A new post: an author's or a contributor's names them among its authors (they are by default); a contributor's is a draft. */
export function assertMayCreatePost(caller: Caller, post: PostChanges): void {
  const member = restrictedMember(caller);
  if (!member) return;
  if (post.authors !== undefined && !post.authors.includes(member.userId)) {
    throw refused(`${member.role === "author" ? "An author" : "A contributor"} may only create posts they are an author of`, "authors");
  }
  if (member.role === "contributor") assertNoPublishing(post);
}

/**
 * A change to a post (an update, a restored revision, a preview link): an author's to their own
 * posts; a contributor's to their own drafts, publishing nothing.
 */
export async function assertMayChangePost(db: Reader, caller: Caller, accountId: string, blogId: string, changes: PostChanges = {}): Promise<void> {
  const member = restrictedMember(caller);
  if (!member) return;
  const post = await readPost(db, accountId, blogId);
  if (!post) return;
  if (!post.authors.includes(member.userId)) {
    throw refused(member.role === "author" ? "An author may only change their own posts" : "A contributor may only change their own drafts");
  }
  if (member.role === "author") return;
  if (post.isPublic || post.publishedAt || post.publishAt) {
    throw refused("A contributor may only change drafts: this post is public, scheduled or has been published");
  }
  assertNoPublishing(changes);
  // A change naming the authors keeps the contributor among them: they would lose the draft.
  if (changes.authors !== undefined && !changes.authors.includes(member.userId)) {
    throw refused("A contributor may not remove themselves from a draft's authors", "authors");
  }
}

/** A delete: an author's of their own posts; a contributor's of their own posts never published. */
export async function assertMayDeletePost(db: Reader, caller: Caller, accountId: string, blogId: string): Promise<void> {
  const member = restrictedMember(caller);
  if (!member) return;
  const post = await readPost(db, accountId, blogId);
  if (!post) return;
  if (!post.authors.includes(member.userId)) {
    throw refused(member.role === "author" ? "An author may only delete their own posts" : "A contributor may only delete their own drafts");
  }
  if (member.role === "contributor" && (post.isPublic || post.publishedAt)) throw refused("A contributor cannot delete a published post");
}

async function readPost(db: Reader, accountId: string, blogId: string): Promise<PostState | null> {
  return db.blog.findFirst({ where: { id: blogId, userId: accountId }, select: { authors: true, isPublic: true, publishAt: true, publishedAt: true } });
}
