import "server-only";
import type { Caller } from "~/server/accounts/caller";
import type { SessionMember } from "~/server/auth";
import { ApiError } from "./errors";

/**
 * A member whose address is not confirmed yet may write blogs but not hand out access to the
 * publication: API keys and webhook endpoints wait for the confirmation (docs/security.md, Email
 * verification). Keys never reach these operations (they are the dashboard's alone).
 */
export function requireVerifiedEmail(caller: Caller<SessionMember> | null): void {
  if (caller?.kind === "member" && !caller.member.emailVerified) {
    throw new ApiError(
      "EMAIL_NOT_VERIFIED",
      "Confirm your email address before creating API keys or webhook endpoints",
      `Confirm your email address before creating API keys or webhook endpoints: follow the link emailed to ${caller.member.email}, or send a new one with Resend above`,
    );
  }
}
