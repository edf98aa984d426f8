import "server-only";
import type { Plan } from "~/shared/plans";
import type { Db } from "~/server/db";
import { DomainError } from "~/server/common/domain-error";

/** Emails are stored lowercased, as better-auth does at sign-up and sign-in. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function findAccountByEmail(db: Db, email: string): Promise<{ id: string; email: string; plan: Plan }> {
  const account = await db.user.findUnique({
    where: { email: normalizeEmail(email) },
    select: { id: true, email: true, plan: true },
  });
  if (!account) throw new DomainError("RESOURCE_NOT_FOUND", `no account with email ${email}`);
  return account;
}
