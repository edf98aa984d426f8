/**
 * The bounds of an owner's password and the forms' first check of an email address: one copy for
 * the sign-up, reset and settings forms, the operator CLI and better-auth (src/server/auth/config.ts).
 */

// better-auth's default bounds, so an account the CLI makes could also have been made by signing up.
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

/** What a new password breaks, as a sentence for its field, or undefined. */
export function newPasswordProblem(password: string): string | undefined {
  if (password.length < PASSWORD_MIN_LENGTH) return `The password must be at least ${PASSWORD_MIN_LENGTH} characters.`;
  if (password.length > PASSWORD_MAX_LENGTH) return `The password must be at most ${PASSWORD_MAX_LENGTH} characters.`;
  return undefined;
}

/** Looks like an address (something@domain.tld): the server checks it properly, the form only says which field is wrong. */
export const looksLikeEmail = (value: string): boolean => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);
