import "server-only";
import type { Plan } from "~/shared/plans";
import type { Db } from "~/server/db";
import { DomainError } from "~/server/common/domain-error";

/** Emails are stored lowercased, as better-auth does at sign-up and sign-in. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * The account (publication) the CLI's `--email` names: the one its person owns, their own first
 * (the publication of their id), then the oldest (docs/teams.md).
 */
export async function findAccountByEmail(db: Db, email: string): Promise<{ id: string; email: string; plan: Plan }> {
  const person = await db.user.findUnique({
    where: { email: normalizeEmail(email) },
    select: { id: true, email: true, memberships: { where: { role: "owner" }, select: { organization: { select: { id: true, plan: true } } }, orderBy: { createdAt: "asc" } } },
  });
  if (!person) throw new DomainError("RESOURCE_NOT_FOUND", `no account with email ${email}`);
  const owned = person.memberships.map((m) => m.organization);
  const account = owned.find((o) => o.id === person.id) ?? owned[0];
  if (!account) throw new DomainError("RESOURCE_NOT_FOUND", `${email} owns no publication`);
  return { id: account.id, email: person.email, plan: account.plan };
}
