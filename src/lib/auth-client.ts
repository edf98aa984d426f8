"use client";

import { inferAdditionalFields } from "better-auth/client/plugins";
import { createAuthClient } from "better-auth/react";
import { asSentence } from "./format";

/** better-auth in the browser: sign-up, sign-in, sign-out, verification and reset against /api/auth on this origin. */
export const authClient = createAuthClient({
  plugins: [inferAdditionalFields({ user: { handle: { type: "string", required: true } } })],
});

/** better-auth's error, told plainly. */
export function authErrorMessage(error: { code?: string; message?: string; status?: number } | null): string {
  if (!error) return "";
  switch (error.code) {
    case "INVALID_EMAIL_OR_PASSWORD":
      return "Wrong email or password.";
    case "INVALID_TOKEN":
      return "This reset link has expired or was already used. Ask for a new one.";
    case "PASSWORD_TOO_SHORT":
      return "The password must be at least 8 characters.";
    case "PASSWORD_TOO_LONG":
      return "The password must be at most 128 characters.";
    case "INVALID_EMAIL":
      return "Enter a valid email address.";
  }
  if (error.status === 429) return "Too many attempts. Wait a minute, then try again.";
  return error.message ? asSentence(error.message) : "Something went wrong. Try again.";
}
