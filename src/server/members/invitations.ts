import "server-only";
/**
 * An invitation as its link's page shows it (src/app/invitations/[id]/page.tsx), and joining it
 * (docs/teams.md): good once, for 7 days, only to the person signed in with the invited address.
 * Joining goes through better-auth's organization plugin, which takes the invitation from pending
 * to accepted in one conditional write (two tabs cannot both join) and makes the new publication
 * the session's.
 */
import { getAuth } from "~/server/auth/config";
import { DomainError } from "~/server/common/domain-error";
import { getDb, type Db } from "~/server/db";
import { isRole, type Role } from "~/shared/roles";
import { isAPIError } from "better-auth/api";

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

const REFUSALS: Record<Exclude<InvitationState["state"], "ready">, [DomainError["code"], string]> = {
  "not-found": ["RESOURCE_NOT_FOUND", "Invitation not found"],
  expired: ["RESOURCE_CONFLICT", "This invitation has expired: ask for a new one"],
  used: ["RESOURCE_CONFLICT", "This invitation was already used"],
  revoked: ["RESOURCE_CONFLICT", "This invitation was revoked"],
  "sign-in": ["INSUFFICIENT_PERMISSIONS", "Sign in with the invited address to join"],
  "wrong-account": ["INSUFFICIENT_PERMISSIONS", "This invitation was sent to another address: sign in with it to join"],
  "already-member": ["RESOURCE_CONFLICT", "You are already a member of this publication"],
};

/** Joins the invitation's publication as its role; the session then works in it. */
export async function acceptInvitation(db: Db, headers: Headers, person: { userId: string; email: string }, invitationId: string): Promise<{ publicationId: string; role: Role }> {
  const state = await invitationState(db, invitationId, person);
  if (state.state !== "ready") {
    const [code, message] = REFUSALS[state.state];
    throw new DomainError(code, message);
  }
  try {
    const { member } = await getAuth().api.acceptInvitation({ headers, body: { invitationId } });
    return { publicationId: member.organizationId, role: state.role };
  } catch (error) {
    // Taken by another tab between the check and the write: better-auth's conditional update refused it.
    if (isAPIError(error)) throw new DomainError("RESOURCE_CONFLICT", "This invitation was already used");
    throw error;
  }
}

/** The invitation page's state (src/app/invitations/[id]/page.tsx), on the app's database. */
export function invitationPageState(invitationId: string, person: { userId: string; email: string } | null): Promise<InvitationState> {
  return invitationState(getDb(), invitationId, person);
}
