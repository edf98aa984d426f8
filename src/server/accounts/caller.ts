import "server-only";
import type { Plan } from "~/shared/plans";
import type { AuthenticatedKey } from "~/server/keys/authenticate";
import { isPermission, type Permission } from "~/shared/permissions";
import { aRole, keyPermissionsOf, roleAtLeast, type Role } from "~/shared/roles";

/** The publication a member works in (the account: its id names every row it owns) and their role in it. */
export interface MemberPublication {
  id: string;
  plan: Plan;
  role: Role;
}

/** A person signed in to the dashboard, working in one publication (docs/teams.md). */
export interface Member {
  /** The person (better-auth's user id), named as the author of what they write. */
  userId: string;
  publication: MemberPublication;
}

/**
 * Who makes a request, as the door it came in decides: an API key (/api/v1) or a member signed in
 * to the dashboard (/api/trpc). Every procedure serves both; what they may do follows from this
 * value alone.
 */
export type Caller<M extends Member = Member> = { kind: "apiKey"; key: AuthenticatedKey } | { kind: "member"; member: M };

/** The account (publication) a caller acts for. */
export function callerAccount(caller: Caller): { id: string; plan: Plan } {
  return caller.kind === "member" ? { id: caller.member.publication.id, plan: caller.member.publication.plan } : { id: caller.key.accountId, plan: caller.key.plan };
}

/**
 * What an operation asks of its caller, as its procedure's meta declares it
 * (src/server/api/trpc.ts): the permission a key needs (none: no key may call it), and the least
 * trusted role a member needs (docs/teams.md, Roles; none: no member may call it).
 */
export interface CallRule {
  permission?: Permission;
  minRole?: Role;
}

/**
 * Whether a caller may perform an operation: a member when their role is the operation's
 * `minRole` or more trusted (read from the membership at every request, src/server/auth/session-user.ts);
 * a key when it was given the operation's permission, whoever made it. This is the one rule; what
 * a member below editor may do to a post that is not theirs is the posts' own rule
 * (src/server/blogs/blog-access.ts).
 */
export function callerHolds(caller: Caller, rule: CallRule): boolean {
  if (caller.kind === "member") return rule.minRole !== undefined && roleAtLeast(caller.member.publication.role, rule.minRole);
  return rule.permission !== undefined && caller.key.permissions.includes(rule.permission);
}

/** Why `callerHolds` said no, in the words of the 403 INSUFFICIENT_PERMISSIONS answer. */
export function refusalMessage(caller: Caller, rule: CallRule): string {
  if (caller.kind === "member") {
    const { role } = caller.member.publication;
    if (rule.minRole === undefined) return "This is done with an API key, not in the dashboard";
    if (rule.minRole === "owner") return `Only the publication's owner may do this; you are ${aRole(role)}`;
    return `This needs the ${rule.minRole} role or above; you are ${aRole(role)} in this publication`;
  }
  return rule.permission ? `This API key lacks the ${rule.permission} permission` : "Only the publication's members may do this, in the dashboard";
}

/**
 * The permissions of `wanted` a member's role may not give a key they make (docs/teams.md, Keys):
 * empty when they may make it.
 */
export function keyPermissionsBeyondRole(member: Member, wanted: readonly string[]): string[] {
  const allowed: readonly string[] = keyPermissionsOf(member.publication.role);
  // An unknown name is the key's own 400, not a refusal.
  return wanted.filter((permission) => isPermission(permission) && !allowed.includes(permission));
}

/** The person a request acts as: a member's user id; null for a key (it acts for the publication). */
export function callerUserId(caller: Caller): string | null {
  return caller.kind === "member" ? caller.member.userId : null;
}
