/**
 * An owner's display name, shown on their public pages (docs/security.md, Accounts): 1 to 100
 * characters after trimming, no control characters (NUL, line breaks, escape...). The same rule
 * for sign-up, account settings and the operator CLI.
 */
export const DISPLAY_NAME_MAX_LENGTH = 100;

export const DISPLAY_NAME_RULE = `name must be 1 to ${DISPLAY_NAME_MAX_LENGTH} characters, without control characters`;

/** Why `name` (already trimmed) can't be an owner's name, or null when it can. */
export function displayNameProblem(name: string): string | null {
  const length = [...name].length;
  if (length < 1 || length > DISPLAY_NAME_MAX_LENGTH || /\p{Cc}/u.test(name)) return DISPLAY_NAME_RULE;
  return null;
}
