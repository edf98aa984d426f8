/**
 * The roles of a publication's members (docs/teams.md), from the most to the least trusted. What
 * each may do is decided in one place: src/server/accounts/caller.ts.
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
