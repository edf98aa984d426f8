/** The permissions an API key can carry (README, The API). */
export const PERMISSIONS = ["read:blogs", "write:blogs", "delete:blogs", "read:analytics", "read:subscribers", "write:subscribers", "read:audit"] as const;

export type Permission = (typeof PERMISSIONS)[number];

export function isPermission(value: string): value is Permission {
  return (PERMISSIONS as readonly string[]).includes(value);
}
