import { randomUUID } from "node:crypto";
import { createAccount } from "~/server/accounts/create-account";
import type { Role } from "~/shared/roles";
import { db } from "./api";

/** A person working in someone else's publication (docs/teams.md), signed in with `signIn`. */
export interface TestMember {
  userId: string;
  email: string;
  role: Role;
  /** The member row's id. */
  memberId: string;
}

/**
 * A person who belongs to `publicationId` alone, with `role`: made as every account is (a user
 * with a password, and their own publication), then their own publication removed and a `member`
 * row inserted directly, as an accepted invitation leaves it. Their session then works in
 * `publicationId`, their only membership (src/server/auth/session-user.ts).
 */
export async function addTestMember(publicationId: string, role: Role, options: { keepOwnPublication?: boolean } = {}): Promise<TestMember> {
  const email = `m-${randomUUID()}@example.test`;
  const person = await createAccount(db(), { email, password: "password-123", name: `A ${role} ${email.slice(2, 8)}` });
  if (!options.keepOwnPublication) await db().organization.deleteMany({ where: { id: person.id } });
  const memberId = await addMembership(publicationId, person.id, role);
  return { userId: person.id, email, role, memberId };
}

/** `userId` joins `publicationId` with `role`; returns the member row's id. */
export async function addMembership(publicationId: string, userId: string, role: Role): Promise<string> {
  const id = `mem${randomUUID().replaceAll("-", "")}`;
  await db().member.create({ data: { id, organizationId: publicationId, userId, role } });
  return id;
}

