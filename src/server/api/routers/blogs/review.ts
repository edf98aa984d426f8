import "server-only";
import { z } from "zod";
import { callerAccount, type Caller, type Member } from "~/server/accounts/caller";
import { authorChoices, draftsInReview, submitForReview } from "~/server/blogs/review";
import { requestOrigin } from "~/server/http/public-origin";
import { ApiError } from "../../errors";
import { createTRPCRouter, ownerProcedure } from "../../trpc";
import { blogIdParams } from "./schemas";

/**
 * The dashboard's side of a team's writing (docs/teams.md): whom a blog's authors may name, and a
 * draft's "Submit for review". Dashboard-only (no OpenAPI operation, refused to keys).
 *
 * What each role may do is decided in one place (src/server/accounts/caller.ts, the roles rule):
 * these declare it in their meta (`minRole`). `submit` needs no publishing right: every member
 * from contributor up may ask, and the procedure itself lets only the draft's own authors do it.
 * `list` and `authorChoices` read the publication's members and marks, which every member sees.
 */

/** The member calling (these are refused to keys before they run). */
function memberOf(caller: Caller): Member {
  if (caller.kind !== "member") throw new ApiError("INSUFFICIENT_PERMISSIONS", "Only a member of the publication may do this, in the dashboard");
  return caller.member;
}

export const reviewRouter = createTRPCRouter({
  /** Marks the caller's draft as in review and emails the publication's editors, administrators and owner. */
  submit: ownerProcedure
    .meta({ minRole: "contributor" })
    .input(z.object(blogIdParams))
    .mutation(({ ctx, input }) => submitForReview(ctx.db, memberOf(ctx.caller), input.blogId, requestOrigin(ctx.headers))),
  /** The publication's drafts in review, for the "In review" marks of the list and the editor. */
  list: ownerProcedure
    .meta({ minRole: "contributor" })
    .query(({ ctx }) => draftsInReview(ctx.db, callerAccount(ctx.caller).id)),
});

/** The publication's members, for the editor's author picker, and which of them is the caller (the default author). */
export const authorChoicesProcedure = ownerProcedure.meta({ minRole: "contributor" }).query(async ({ ctx }) => {
  const you = memberOf(ctx.caller);
  return { you: you.userId, members: await authorChoices(ctx.db, you.publication.id) };
});
