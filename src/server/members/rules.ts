import "server-only";
/**
 * Who may do what to a publication's members and invitations (docs/teams.md): plain functions of
 * roles, no database and no HTTP. The members procedures (src/server/api/routers/members) ask
 * these before anything is read or written, and refuse with the reason they give.
 *
 * - The owner and administrators invite any role but owner, change any member's role (but the
 *   owner's, and never to owner) and remove any member but the owner.
 * - Editors invite authors and contributors, and revoke such invitations.
 * - Authors and contributors manage nobody.
 * - Everyone may leave, but the owner, who transfers the publication first; only the owner
 *   transfers it, to another member, and becomes an administrator.
 */
import type { Role } from "~/shared/roles";

/** The roles a member may invite, from the most trusted. */
export function invitableRoles(actor: Role): Role[] {
  switch (actor) {
    case "owner":
    case "administrator":
      return ["administrator", "editor", "author", "contributor"];
    case "editor":
      return ["author", "contributor"];
    case "author":
    case "contributor":
      return [];
  }
}

const manages = (actor: Role) => actor === "owner" || actor === "administrator";

/** "an editor", "a contributor". */
const aRole = (role: Role) => `${/^[aeiou]/.test(role) ? "an" : "a"} ${role}`;

/** A refusal's reason, to be shown to the member as it is; null: allowed. */
export type Refusal = string | null;

export function inviteRefusal(actor: Role, role: Role): Refusal {
  if (invitableRoles(actor).includes(role)) return null;
  if (role === "owner") return "Nobody is invited as owner: the owner transfers the publication to a member instead";
  const roles = invitableRoles(actor);
  if (roles.length === 0) return `As ${aRole(actor)} you may not invite anyone`;
  return `As ${aRole(actor)} you may invite only ${roles.map((r) => `${r}s`).join(" and ")}`;
}

/** Whether a member sees the pending invitations for `role` (their links are as good as a new invitation). */
export function seesInvitation(actor: Role, role: Role): boolean {
  return invitableRoles(actor).includes(role);
}

/** Revoking a pending invitation: whoever could have made it. */
export function revokeRefusal(actor: Role, role: Role): Refusal {
  return seesInvitation(actor, role) ? null : `As ${aRole(actor)} you may not revoke an invitation as ${aRole(role)}`;
}

/** The roles an actor may give another member who has `targetRole`: none when they may not change it at all. */
export function assignableRoles(actor: Role, targetRole: Role): Role[] {
  if (!manages(actor) || targetRole === "owner") return [];
  return ["administrator", "editor", "author", "contributor"];
}

export function changeRoleRefusal(actor: Role, target: { role: Role; isActor: boolean }, role: Role): Refusal {
  if (target.isActor) return "Nobody changes their own role: the owner transfers the publication, anyone may leave it";
  if (!manages(actor)) return "Only the owner and administrators change members' roles";
  if (target.role === "owner") return "The owner's role changes only when they transfer the publication";
  if (role === "owner") return "The owner transfers the publication to make another member its owner";
  return null;
}

export function removeRefusal(actor: Role, target: { role: Role; isActor: boolean }): Refusal {
  if (target.isActor) return actor === "owner" ? "The owner cannot leave: transfer the publication to another member first" : null;
  if (!manages(actor)) return "Only the owner and administrators remove members";
  if (target.role === "owner") return "The owner cannot be removed";
  return null;
}

export function transferRefusal(actor: Role, target: { isActor: boolean }): Refusal {
  if (actor !== "owner") return "Only the owner transfers the publication";
  if (target.isActor) return "Choose another member to transfer the publication to";
  return null;
}

/** What the members page offers the viewer: the same rules, so it shows no control that would be refused. */
export function memberCapabilities(actor: Role) {
  return {
    invitableRoles: invitableRoles(actor),
    managesMembers: manages(actor),
    transfers: actor === "owner",
    leaves: actor !== "owner",
  };
}
