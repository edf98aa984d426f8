import "server-only";
/**
 * An invitation as its link's page shows it (src/app/invitations/[id]/page.tsx) (docs/teams.md):
 * good once, for 7 days, only to the person signed in with the invited address. Joining is
 * better-auth's /organization/accept-invitation, the one endpoint of its organization plugin the
 * door opens (src/server/auth/endpoint-policies.ts): it checks the same (address, status, expiry),
 * takes the invitation from pending to accepted in one conditional write (two tabs cannot both
 * join) and makes the new publication the session's; src/server/auth/organization.ts refuses a
 * person already in the publication.
 */
import { getDb, type Db } from "~/server/db";
import { isRole, type Role } from "~/shared/roles";

export type InvitationState =
  /** Nothing to show: no such invitation (its link is its only secret). */
  | { state: "not-found" }
  | { state: "expired" | "used" | "revoked"; publication: string }
  | { state: "sign-in"; publication: string; role: Role; email: string }
  | { state: "wrong-account"; publication: string; email: string; signedInAs: string }
  | { state: "already-member"; publication: string }
  | { state: "ready"; publication: string; role: Role; email: string; invitedBy: string | null };

/** What the invitation's page offers the visitor (`person`: the signed-in one, or null). */
export async function invitationState(db: Db, invitationId: string, person: { userId: string; email: string } | null, now = new Date()): Promise<InvitationState> {
  const invitation = await db.invitation.findUnique({
    where: { id: invitationId },
    select: {
      email: true,
      role: true,
      status: true,
      expiresAt: true,
      organizationId: true,
      organization: { select: { name: true } },
      inviter: { select: { name: true } },
    },
  });
  if (!invitation || !isRole(invitation.role)) return { state: "not-found" };
  const publication = invitation.organization.name;
  if (invitation.status === "accepted") return { state: "used", publication };
  if (invitation.status !== "pending") return { state: "revoked", publication };
  if (invitation.expiresAt <= now) return { state: "expired", publication };
  if (!person) return { state: "sign-in", publication, role: invitation.role, email: invitation.email };
  if (person.email.toLowerCase() !== invitation.email.toLowerCase()) return { state: "wrong-account", publication, email: invitation.email, signedInAs: person.email };
  const member = await db.member.findFirst({ where: { organizationId: invitation.organizationId, userId: person.userId }, select: { id: true } });
  if (member) return { state: "already-member", publication };
  return { state: "ready", publication, role: invitation.role, email: invitation.email, invitedBy: invitation.inviter?.name ?? null };
}

/** The invitation page's state (src/app/invitations/[id]/page.tsx), on the app's database. */
export function invitationPageState(invitationId: string, person: { userId: string; email: string } | null): Promise<InvitationState> {
  return invitationState(getDb(), invitationId, person);
}
