import "server-only";
import { z } from "zod";
import { changeMemberRole, inviteMember, listMembers, listMyPublications, removeMember, revokeInvitation, switchPublication, transferOwnership } from "~/server/members/members";
import { PASSWORD_MAX_LENGTH } from "~/shared/account-credentials";
import { ROLES } from "~/shared/roles";
import { ApiError } from "../../errors";
import { createTRPCRouter, ownerProcedure, type ProcedureContext } from "../../trpc";

const id = z.string().min(1).max(200);
const role = z.enum(ROLES, { error: `role must be one of ${ROLES.join(", ")}` });

/** The signed-in member of a dashboard call (ownerProcedure has refused every key already). */
function memberOf(ctx: ProcedureContext) {
  const { caller } = ctx;
  if (caller.kind !== "member") throw new ApiError("INSUFFICIENT_PERMISSIONS", "Only a member may do this, in the dashboard");
  return caller.member;
}

/**
 * A publication's members and invitations, and the publications of the signed-in person
 * (docs/teams.md, docs/dashboard.md): the dashboard's alone (ownerProcedure, no OpenAPI meta).
 * Who may do what is src/server/members/rules.ts, checked by src/server/members/members.ts in the
 * caller's publication before anything changes; better-auth's organization plugin then makes the
 * change on the caller's own session (the request's headers). Joining an invitation is not here:
 * a person in no publication yet must be able to (src/app/invitations/[id]/page.tsx posts to
 * /api/auth/organization/accept-invitation, src/server/auth/endpoint-policies.ts).
 */
export const membersRouter = createTRPCRouter({
  list: ownerProcedure.meta({ minRole: "contributor" }).query(({ ctx }) => listMembers(ctx.db, memberOf(ctx))),
  invite: ownerProcedure.meta({ minRole: "contributor" }).input(z.object({ email: z.email({ error: "email must be an email address" }).max(254), role })).mutation(({ ctx, input }) => {
    const member = memberOf(ctx);
    // The email names the inviter and the publication: only from a proven address (docs/security.md, Text in emails).
    if (!member.emailVerified) {
      throw new ApiError("EMAIL_NOT_VERIFIED", "Confirm your email address before inviting members", `Follow the link emailed to ${member.email}, or send a new one from the banner above`);
    }
    return inviteMember(ctx.db, ctx.headers, member, input);
  }),
  revokeInvitation: ownerProcedure.meta({ minRole: "contributor" }).input(z.object({ invitationId: id })).mutation(({ ctx, input }) => revokeInvitation(ctx.db, ctx.headers, memberOf(ctx), input.invitationId)),
  changeRole: ownerProcedure.meta({ minRole: "contributor" }).input(z.object({ memberId: id, role })).mutation(({ ctx, input }) => changeMemberRole(ctx.db, ctx.headers, memberOf(ctx), input)),
  /** Removes a member; the caller's own member id: leaves the publication. */
  remove: ownerProcedure.meta({ minRole: "contributor" }).input(z.object({ memberId: id })).mutation(({ ctx, input }) => removeMember(ctx.db, ctx.headers, memberOf(ctx), input.memberId)),
  transferOwnership: ownerProcedure
    .meta({ minRole: "owner" })
    .input(z.object({ memberId: id, password: z.string().min(1, { error: "password is required" }).max(PASSWORD_MAX_LENGTH) }))
    .mutation(({ ctx, input }) => transferOwnership(ctx.db, memberOf(ctx), input)),
  /** The caller's publications, for the dashboard's switcher. */
  publications: ownerProcedure.meta({ minRole: "contributor" }).query(({ ctx }) => {
    const member = memberOf(ctx);
    return listMyPublications(ctx.db, member.userId, member.publication.id);
  }),
  switchPublication: ownerProcedure.meta({ minRole: "contributor" }).input(z.object({ publicationId: id })).mutation(({ ctx, input }) => switchPublication(ctx.db, ctx.headers, memberOf(ctx).userId, input.publicationId)),
});
