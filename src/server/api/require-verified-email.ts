import "server-only";
import type { Caller } from "~/server/accounts/caller";
import type { SessionUser } from "~/server/auth";
import { ApiError } from "./errors";

/**
 * An owner whose address is not confirmed yet may write blogs but not hand out access to the
 * account: API keys and webhook endpoints wait for the confirmation (docs/security.md, Email
 * verification). Keys never reach these operations (they are the owner's alone).
 */
export function requireVerifiedEmail(caller: Caller<SessionUser> | null): void {
  if (caller?.kind === "owner" && !caller.user.emailVerified) {
    throw new ApiError(
      "EMAIL_NOT_VERIFIED",
      "Confirm your email address before creating API keys or webhook endpoints",
      `Confirm your email address before creating API keys or webhook endpoints: follow the link emailed to ${caller.user.email}, or send a new one with Resend above`,
    );
  }
}
