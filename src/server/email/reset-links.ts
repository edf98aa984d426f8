import "server-only";
// An account's password-reset links (docs/security.md, Password reset): better-auth keeps each
// token as a `verification` row, "reset-password:<token>" holding the user's id, and mints one per
// request. The app keeps at most one working: the last one emailed.
import { getDb } from "~/server/db";

const RESET_PREFIX = "reset-password:";

/** The account's reset links but `keptToken`'s stop working (all of them without one). */
export async function dropResetLinks(userId: string, keptToken?: string): Promise<void> {
  await getDb().verification.deleteMany({
    where: { value: userId, identifier: { startsWith: RESET_PREFIX, ...(keptToken !== undefined && { not: `${RESET_PREFIX}${keptToken}` }) } },
  });
}

/** A link minted but never emailed stops working at once. */
export async function dropResetLink(token: string): Promise<void> {
  await getDb().verification.deleteMany({ where: { identifier: `${RESET_PREFIX}${token}` } });
}
