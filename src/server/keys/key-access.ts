import "server-only";
import { keyPermissionsBeyondRole, type Caller } from "~/server/accounts/caller";
import { DomainError } from "~/server/common/domain-error";
import type { Db } from "~/server/db";
import { aRole, roleAtLeast } from "~/shared/roles";

/**
 * Who may make and manage a publication's keys, beyond the role each key operation names
 * (docs/teams.md, Keys). A key belongs to the publication, and records the member who made it: a
 * member gives a key only permissions their role has (src/shared/roles.ts, keyPermissionsOf);
 * administrators and the owner manage every key, the others only the keys they made. Only
 * members are concerned (the CLI acts as the operator).
 */

function refused(message: string, details?: string, field?: string): DomainError {
  return new DomainError("INSUFFICIENT_PERMISSIONS", message, details, field);
}

/** A new key's permissions: each one the member's role has. */
export function assertMayGiveKeyPermissions(caller: Caller, permissions: readonly string[]): void {
  if (caller.kind !== "member") return;
  const beyond = keyPermissionsBeyondRole(caller.member, permissions);
  if (beyond.length === 0) return;
  throw refused(
    `${capitalized(aRole(caller.member.publication.role))} cannot give a key ${beyond.join(", ")}`,
    "A key acts for the whole publication: a member gives it only the permissions their role has (docs/teams.md, Keys)",
    "permissions",
  );
}

/**
 * A change to an existing key (rename, roll, end of grace, deactivation, its activity): a key the
 * member made, unless they are an administrator or the owner. Rolling makes a new key with the
 * old one's permissions, so it also needs them all. A key the caller cannot see is left to the
 * operation's own RESOURCE_NOT_FOUND.
 */
export async function assertMayManageKey(db: Db, caller: Caller, accountId: string, keyId: string, { rolling = false } = {}): Promise<void> {
  if (caller.kind !== "member" || roleAtLeast(caller.member.publication.role, "administrator")) return;
  const key = await db.apiKey.findFirst({ where: { id: keyId, userId: accountId }, select: { createdById: true, permissions: true } });
  if (!key) return;
  if (key.createdById !== caller.member.userId) throw refused("Only administrators may manage keys other members made");
  if (rolling) assertMayGiveKeyPermissions(caller, key.permissions);
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
