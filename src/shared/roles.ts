import { PERMISSIONS, type Permission } from "./permissions";

/**
 * The roles of a publication's members (docs/teams.md), from the most to the least trusted. What
 * each may do is decided in one place: src/server/accounts/caller.ts, from the least trusted role
 * each procedure names in its meta (`minRole`), and for posts by src/server/blogs/blog-access.ts.
 */
export const ROLES = ["owner", "administrator", "editor", "author", "contributor"] as const;

export type Role = (typeof ROLES)[number];

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

/** Whether `role` is `atLeast` or more trusted. */
export function roleAtLeast(role: Role, atLeast: Role): boolean {
  return ROLES.indexOf(role) <= ROLES.indexOf(atLeast);
}

/** "an author", "a contributor": a role in a sentence. */
export function aRole(role: Role): string {
  return `${/^[aeiou]/.test(role) ? "an" : "a"} ${role}`;
}

/**
 * The permissions a member may give the API keys they make (docs/teams.md, Keys). A key acts for
 * the whole publication, with none of a member's rules about their own posts, so a role gives a key
 * only what it could do to every post itself: an author or a contributor, who change only their
 * own posts, may not make a key that writes; the audit log is the administrators' to read.
 */
const KEY_PERMISSIONS_OF: Record<Role, readonly Permission[]> = {
  owner: PERMISSIONS,
  administrator: PERMISSIONS,
  editor: PERMISSIONS.filter((permission) => (permission as string) !== "read:audit"),
  author: ["read:blogs", "read:analytics"],
  contributor: [],
};

export function keyPermissionsOf(role: Role): readonly Permission[] {
  return KEY_PERMISSIONS_OF[role];
}
