import "server-only";
import type { Plan } from "~/shared/plans";
import type { AuthenticatedKey } from "~/server/keys/authenticate";
import type { Permission } from "~/shared/permissions";

/** The owner of an account, signed in to the dashboard. */
export interface Owner {
  id: string;
  plan: Plan;
}

/**
 * Who makes a request, as the door it came in decides: an API key (/api/v1) or the signed-in
 * owner (/api/trpc). Every procedure serves both; what they may do follows from this value alone.
 */
export type Caller<O extends Owner = Owner> = { kind: "apiKey"; key: AuthenticatedKey } | { kind: "owner"; user: O };

/** The account a caller acts for. */
export function callerAccount(caller: Caller): { id: string; plan: Plan } {
  return caller.kind === "owner" ? { id: caller.user.id, plan: caller.user.plan } : { id: caller.key.accountId, plan: caller.key.plan };
}

/**
 * Whether a caller may perform an operation needing `permission`. The owner holds every
 * permission on their account; a key only those it was given. An operation without a permission
 * (Allow API Access, keys, usage: README, The dashboard) is the owner's alone.
 */
export function callerHolds(caller: Caller, permission: Permission | undefined): boolean {
  if (caller.kind === "owner") return true;
  return permission !== undefined && caller.key.permissions.includes(permission);
}
