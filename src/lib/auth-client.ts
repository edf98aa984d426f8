"use client";

import { passkeyClient } from "@better-auth/passkey/client";
import { inferAdditionalFields, twoFactorClient } from "better-auth/client/plugins";
import { createAuthClient } from "better-auth/react";
import { asSentence } from "./format";

/** better-auth in the browser: sign-up, sign-in (with a second factor or a passkey), sign-out, verification and reset against /api/auth on this origin. */
export const authClient = createAuthClient({
  plugins: [inferAdditionalFields({ user: { handle: { type: "string", required: true }, bio: { type: "string", required: false } } }), twoFactorClient(), passkeyClient()],
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
    case "INVALID_CODE":
      return "That code is not right. Check your authenticator app and try again.";
    case "INVALID_BACKUP_CODE":
      return "That backup code is not right, or it was used already.";
    case "INVALID_TWO_FACTOR_COOKIE":
    case "TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE":
      return "This sign-in has expired. Enter your email and password again.";
    case "AUTH_CANCELLED":
    case "ERROR_CEREMONY_ABORTED":
      return "The passkey prompt was closed before it finished. Try again.";
    case "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED":
      return "This device already holds a passkey for your account.";
    case "ACCOUNT_TEMPORARILY_LOCKED":
      return "Too many wrong codes. Wait 15 minutes, then try again.";
    case "USER_NOT_VERIFIED":
      return "The passkey did not verify you (fingerprint, face or PIN). Try again, or use another device.";
  }
  if (error.status === 429) return "Too many attempts. Wait a minute, then try again.";
  return error.message ? asSentence(error.message) : "Something went wrong. Try again.";
}
