import "server-only";
/**
 * A publication's members and invitations (docs/teams.md), for the members procedures
 * (src/server/api/routers/members). Every operation checks the rules of ./rules.ts in the actor's
 * publication first, then changes memberships through better-auth's organization plugin
 * (src/server/auth/organization.ts) on the actor's own session (`headers`), which checks again.
 * What a session may do is read again at its next request (src/server/auth/session-user.ts), so a
 * member removed or given another role is limited at once; nothing here is cached.
 */
import { isAPIError } from "better-auth/api";
import { getAuth } from "~/server/auth/config";
import { withInvitingOrigin } from "~/server/auth/organization";
import { authThrottle, emailSubject } from "~/server/auth/sign-in-throttle";
import { DomainError, type DomainErrorCode } from "~/server/common/domain-error";
import { getDb, type Db } from "~/server/db";
import { requestOrigin } from "~/server/http/public-origin";
import { PASSWORD_MAX_LENGTH } from "~/shared/account-credentials";
import { isRole, ROLES, type Role } from "~/shared/roles";
import { assignableRoles, changeRoleRefusal, memberCapabilities, removeRefusal, revokeRefusal, seesInvitation, inviteRefusal, transferRefusal, type Refusal } from "./rules";

/** The member acting, in the publication their session works in. */
export interface Actor {
  userId: string;
  publication: { id: string; name: string; role: Role };
}

export interface MemberView {
  id: string;
  userId: string;
  name: string;
  email: string;
  role: Role;
  joinedAt: string;
  isYou: boolean;
  /** The roles the viewer may give this member (empty: they may not change it). */
  assignableRoles: Role[];
  /** Whether the viewer may remove this member (or, for themselves, leave). */
  removable: boolean;
  /** Whether the viewer may transfer the publication to this member. */
  canReceiveOwnership: boolean;
}

export interface InvitationView {
  id: string;
  email: string;
  role: Role;
  invitedBy: string | null;
  createdAt: string;
  expiresAt: string;
}

function refuse(refusal: Refusal): void {
  if (refusal) throw new DomainError("INSUFFICIENT_PERMISSIONS", refusal);
}

const byRole = (a: { role: string }, b: { role: string }) => ROLES.indexOf(a.role as Role) - ROLES.indexOf(b.role as Role);

/** The publication's members (owner first) and the pending invitations the viewer may see (those they could have made). */
export async function listMembers(db: Db, actor: Actor) {
  const organizationId = actor.publication.id;
  const [members, invitations] = await Promise.all([
    db.member.findMany({
      where: { organizationId },
      select: { id: true, userId: true, role: true, createdAt: true, user: { select: { name: true, email: true } } },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    }),
    db.invitation.findMany({
      where: { organizationId, status: "pending", expiresAt: { gt: new Date() } },
      select: { id: true, email: true, role: true, createdAt: true, expiresAt: true, inviter: { select: { name: true } } },
      orderBy: [{ createdAt: "desc" }, { id: "asc" }],
    }),
  ]);
  const me = actor.publication.role;
  return {
    publication: { id: organizationId, name: actor.publication.name },
    you: { userId: actor.userId, role: me, ...memberCapabilities(me) },
    members: members
      .filter((m): m is typeof m & { role: Role } => isRole(m.role))
      .sort(byRole)
      .map((m): MemberView => {
        const target = { role: m.role, isActor: m.userId === actor.userId };
        return {
          id: m.id,
          userId: m.userId,
          name: m.user.name,
          email: m.user.email,
          role: m.role,
          joinedAt: m.createdAt.toISOString(),
          isYou: target.isActor,
          assignableRoles: target.isActor ? [] : assignableRoles(me, m.role),
          removable: removeRefusal(me, target) === null,
          canReceiveOwnership: transferRefusal(me, target) === null,
        };
      }),
    invitations: invitations
      .filter((i): i is typeof i & { role: Role } => isRole(i.role) && seesInvitation(me, i.role))
      .map(
        (i): InvitationView => ({
          id: i.id,
          email: i.email,
          role: i.role,
          invitedBy: i.inviter?.name ?? null,
          createdAt: i.createdAt.toISOString(),
          expiresAt: i.expiresAt.toISOString(),
        }),
      ),
  };
}

/** better-auth's refusals in the API's words: a 4xx of ours, never a 500. */
const AUTH_CODES: Record<string, DomainErrorCode> = {
  USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION: "RESOURCE_CONFLICT",
  USER_IS_ALREADY_INVITED_TO_THIS_ORGANIZATION: "RESOURCE_CONFLICT",
  INVITATION_LIMIT_REACHED: "RESOURCE_CONFLICT",
  ORGANIZATION_MEMBERSHIP_LIMIT_REACHED: "RESOURCE_CONFLICT",
  YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER: "RESOURCE_CONFLICT",
  YOU_CANNOT_LEAVE_THE_ORGANIZATION_WITHOUT_AN_OWNER: "RESOURCE_CONFLICT",
  INVITATION_NOT_FOUND: "RESOURCE_NOT_FOUND",
  MEMBER_NOT_FOUND: "RESOURCE_NOT_FOUND",
  ORGANIZATION_NOT_FOUND: "RESOURCE_NOT_FOUND",
};

async function viaAuth<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!isAPIError(error)) throw error;
    const code = typeof error.body?.code === "string" ? error.body.code : "";
    const message = error.body?.message ?? error.message;
    const mapped: DomainErrorCode | undefined =
      AUTH_CODES[code] ??
      (error.statusCode === 403 || error.statusCode === 401
        ? "INSUFFICIENT_PERMISSIONS"
        : error.statusCode === 429
          ? "RATE_LIMIT_EXCEEDED"
          : error.statusCode === 400
            ? "INVALID_PARAMETER"
            : undefined);
    if (!mapped) throw error;
    throw new DomainError(mapped, message);
  }
}

/** A member of the actor's publication, by id: any other is not found. */
async function memberInPublication(db: Db, actor: Actor, memberId: string) {
  const member = await db.member.findFirst({ where: { id: memberId, organizationId: actor.publication.id }, select: { id: true, userId: true, role: true } });
  if (!member || !isRole(member.role)) throw new DomainError("RESOURCE_NOT_FOUND", "Member not found");
  return { ...member, role: member.role, isActor: member.userId === actor.userId };
}

/**
 * Invites `email` for `role`: a pending invitation to the same address is cancelled (one link
 * works at a time). The email is queued by the plugin (src/server/auth/organization.ts).
 */
export async function inviteMember(db: Db, headers: Headers, actor: Actor, input: { email: string; role: Role }): Promise<InvitationView> {
  refuse(inviteRefusal(actor.publication.role, input.role));
  const email = input.email.trim().toLowerCase();
  const existing = await db.member.findFirst({ where: { organizationId: actor.publication.id, user: { email } }, select: { id: true } });
  if (existing) throw new DomainError("RESOURCE_CONFLICT", `${email} is already a member of this publication`, undefined, "email");
  const invitation = await withInvitingOrigin(requestOrigin(headers), () =>
    viaAuth(() => getAuth().api.createInvitation({ headers, body: { email, role: input.role, organizationId: actor.publication.id } })),
  );
  return {
    id: invitation.id,
    email: invitation.email,
    role: input.role,
    invitedBy: null,
    createdAt: new Date(invitation.createdAt).toISOString(),
    expiresAt: new Date(invitation.expiresAt).toISOString(),
  };
}

/** Revokes a pending invitation of the actor's publication: its link stops working. */
export async function revokeInvitation(db: Db, headers: Headers, actor: Actor, invitationId: string): Promise<{ id: string }> {
  const invitation = await db.invitation.findFirst({ where: { id: invitationId, organizationId: actor.publication.id }, select: { role: true, status: true } });
  if (!invitation || !isRole(invitation.role)) throw new DomainError("RESOURCE_NOT_FOUND", "Invitation not found");
  refuse(revokeRefusal(actor.publication.role, invitation.role));
  if (invitation.status !== "pending") throw new DomainError("RESOURCE_CONFLICT", `This invitation was already ${invitation.status === "accepted" ? "accepted" : "revoked"}`);
  await viaAuth(() => getAuth().api.cancelInvitation({ headers, body: { invitationId } }));
  return { id: invitationId };
}

export async function changeMemberRole(db: Db, headers: Headers, actor: Actor, input: { memberId: string; role: Role }): Promise<{ id: string; role: Role }> {
  const target = await memberInPublication(db, actor, input.memberId);
  refuse(changeRoleRefusal(actor.publication.role, target, input.role));
  if (target.role === input.role) return { id: target.id, role: target.role };
  await viaAuth(() => getAuth().api.updateMemberRole({ headers, body: { memberId: target.id, role: input.role, organizationId: actor.publication.id } }));
  return { id: target.id, role: input.role };
}

/** Removes a member, or (their own id) leaves the publication; the session then works in another of theirs. */
export async function removeMember(db: Db, headers: Headers, actor: Actor, memberId: string): Promise<{ id: string; left: boolean }> {
  const target = await memberInPublication(db, actor, memberId);
  refuse(removeRefusal(actor.publication.role, target));
  if (target.isActor) {
    await viaAuth(() => getAuth().api.leaveOrganization({ headers, body: { organizationId: actor.publication.id } }));
  } else {
    await viaAuth(() => getAuth().api.removeMember({ headers, body: { memberIdOrEmail: target.id, organizationId: actor.publication.id } }));
  }
  return { id: target.id, left: target.isActor };
}

/**
 * The owner hands the publication to another member, confirming with their password (the
 * sign-in's per-email backoff counts wrong ones: docs/security.md, Sign-in): in one transaction
 * the member becomes the owner and the old owner an administrator. better-auth has no transfer.
 */
export async function transferOwnership(db: Db, actor: Actor & { email: string }, input: { memberId: string; password: string }): Promise<{ ownerMemberId: string }> {
  const target = await memberInPublication(db, actor, input.memberId);
  refuse(transferRefusal(actor.publication.role, target));
  await checkPassword(actor, input.password);
  await db.$transaction(async (tx) => {
    // Conditional on the roles as they were read: a concurrent transfer or removal changes nothing.
    const demoted = await tx.member.updateMany({ where: { organizationId: actor.publication.id, userId: actor.userId, role: "owner" }, data: { role: "administrator" } });
    const promoted = await tx.member.updateMany({ where: { id: target.id, organizationId: actor.publication.id, role: target.role }, data: { role: "owner" } });
    if (demoted.count !== 1 || promoted.count !== 1) throw new DomainError("RESOURCE_CONFLICT", "The publication's members changed meanwhile: reload and try again");
  });
  return { ownerMemberId: target.id };
}

async function checkPassword(actor: { userId: string; email: string }, password: string): Promise<void> {
  const { perEmail } = authThrottle();
  const subject = emailSubject(actor.email);
  const waitSeconds = await perEmail.attempt(subject);
  if (waitSeconds > 0) throw new DomainError("RATE_LIMIT_EXCEEDED", `Too many failed password attempts; try again in ${waitSeconds} s`);
  const context = await getAuth().$context;
  const hash = (await context.internalAdapter.findCredentialAccount(actor.userId))?.password;
  const matches = Boolean(hash) && password.length <= PASSWORD_MAX_LENGTH && (await context.password.verify({ hash: hash!, password }));
  if (!matches) throw new DomainError("INVALID_PARAMETER", "Wrong password", undefined, "password");
  await perEmail.succeeded(subject);
}

/** The publications a person belongs to, for the dashboard's switcher: theirs first, then by name. */
export async function listMyPublications(db: Db, userId: string, activeId: string | null) {
  const memberships = await db.member.findMany({
    where: { userId },
    select: { role: true, organization: { select: { id: true, name: true, handle: true } } },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  return memberships
    .filter((m) => isRole(m.role))
    .map((m) => ({ id: m.organization.id, name: m.organization.name, handle: m.organization.handle, role: m.role as Role, active: m.organization.id === activeId }));
}

/** The session works in another of the person's publications from its next request on. */
export async function switchPublication(db: Db, headers: Headers, userId: string, organizationId: string): Promise<{ id: string }> {
  const membership = await db.member.findFirst({ where: { userId, organizationId }, select: { id: true } });
  if (!membership) throw new DomainError("RESOURCE_NOT_FOUND", "Publication not found");
  await viaAuth(() => getAuth().api.setActiveOrganization({ headers, body: { organizationId } }));
  return { id: organizationId };
}

/** The dashboard layout's switcher (src/app/dashboard/layout.tsx): the person's publications, on the app's database. */
export function sessionPublications(userId: string, activeId: string | null) {
  return listMyPublications(getDb(), userId, activeId);
}
