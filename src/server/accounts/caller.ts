import "server-only";
import type { Plan } from "~/shared/plans";
import type { AuthenticatedKey } from "~/server/keys/authenticate";
import type { Permission } from "~/shared/permissions";
import type { Role } from "~/shared/roles";

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
 * Whether a caller may perform an operation needing `permission`. A member holds what their role
 * grants (docs/teams.md); a key only the permissions it was given. An operation without a
 * permission (Allow API Access, keys, usage: README, The dashboard) is the dashboard's alone.
 */
export function callerHolds(caller: Caller, permission: Permission | undefined): boolean {
  if (caller.kind === "member") return true;
  return permission !== undefined && caller.key.permissions.includes(permission);
}
