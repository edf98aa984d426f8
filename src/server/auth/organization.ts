import "server-only";
/**
 * A publication is a team (docs/teams.md): better-auth's organization plugin over the tables of
 * prisma/schema.prisma (`organization`, whose `handle` is better-auth's `slug`; `member`;
 * `invitation`; `session.activeOrganizationId`). One of its HTTP endpoints is open at /api/auth,
 * joining from an invitation's page (endpoint-policies.ts); the dashboard reaches the rest only
 * through the members procedures (src/server/api/routers/members), which check the app's rules
 * (src/server/members/rules.ts) before calling `auth.api.*` on the signed-in person's session.
 * The permissions below are better-auth's second check of the same rules, never looser than them.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { APIError } from "better-auth/api";
import { organization } from "better-auth/plugins";
import { createAccessControl } from "better-auth/plugins/access";
import { queueInvitationEmail } from "~/server/email/account-emails";
import { configuredOrigin } from "~/server/http/public-origin";
import { getDb } from "~/server/db";

/** An invitation is good for 7 days and once (docs/teams.md). */
export const INVITATION_EXPIRES_IN_SECONDS = 7 * 24 * 60 * 60;

/** Pending invitations a publication may have at once. */
export const PENDING_INVITATIONS_LIMIT = 100;

/**
 * The origin of the dashboard request inviting someone: `auth.api.createInvitation` is called
 * server-side, without a request of its own, and the email's link starts with the app's origin
 * (src/server/email/account-emails.ts, emailLinkOrigin).
 */
const invitingOrigin = new AsyncLocalStorage<string>();

export function withInvitingOrigin<T>(origin: string, work: () => Promise<T>): Promise<T> {
  return invitingOrigin.run(origin, work);
}

const access = createAccessControl({
  organization: ["update", "delete"],
  member: ["create", "update", "delete"],
  invitation: ["create", "cancel"],
} as const);

/** better-auth's own check per role: which invitation role, which member, is the app's (src/server/members/rules.ts). */
const roles = {
  owner: access.newRole({ organization: ["update", "delete"], member: ["create", "update", "delete"], invitation: ["create", "cancel"] }),
  administrator: access.newRole({ organization: ["update"], member: ["create", "update", "delete"], invitation: ["create", "cancel"] }),
  editor: access.newRole({ invitation: ["create", "cancel"] }),
  author: access.newRole({}),
  contributor: access.newRole({}),
};

export const organizationPlugin = organization({
  ac: access,
  roles,
  creatorRole: "owner",
  // Publications are made by sign-up and the CLI (src/server/accounts/create-account.ts), never by this plugin's endpoint.
  allowUserToCreateOrganization: false,
  invitationExpiresIn: INVITATION_EXPIRES_IN_SECONDS,
  invitationLimit: PENDING_INVITATIONS_LIMIT,
  cancelPendingInvitationsOnReInvite: true,
  schema: {
    organization: {
      fields: { slug: "handle" },
      additionalFields: { plan: { type: "string", required: false, input: false, defaultValue: "free" } },
    },
  },
  organizationHooks: {
    // better-auth would add a second membership and fail on member's unique key: refused plainly.
    beforeAcceptInvitation: async ({ invitation, user }) => {
      const member = await getDb().member.findFirst({ where: { organizationId: invitation.organizationId, userId: user.id }, select: { id: true } });
      if (member) throw new APIError("BAD_REQUEST", { message: "You are already a member of this publication", code: "ALREADY_A_MEMBER" });
    },
  },
  sendInvitationEmail: async ({ id, role, email, organization: publication, inviter }, request) => {
    const origin = configuredOrigin ?? invitingOrigin.getStore() ?? (request ? new URL(request.url).origin : "");
    await queueInvitationEmail({ to: email, invitationId: id, role, publication: publication.name, inviter: inviter.user }, origin);
  },
});
