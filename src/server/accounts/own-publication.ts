import "server-only";
import { generateRandomString } from "better-auth/crypto";
import type { Prisma } from "~/generated/prisma/client";
import type { Db } from "~/server/db";
import type { Plan } from "~/shared/plans";

type Writer = Db | Prisma.TransactionClient;

/**
 * A person's own publication, made with their account (sign-up, the CLI): the id of the person,
 * their name and handle, them its owner (docs/teams.md). Its id being theirs is what keeps an
 * account's id one value from before teams to now.
 */
export async function createOwnPublication(db: Writer, person: { id: string; name: string; handle: string; plan?: Plan }): Promise<void> {
  await db.organization.create({
    data: {
      id: person.id,
      name: person.name,
      handle: person.handle,
      plan: person.plan ?? "free",
      members: { create: { id: betterAuthId(), userId: person.id, role: "owner" } },
    },
  });
}

/** A person's new handle is their own publication's new address, while they own it (docs/teams.md). */
export async function followOwnHandle(db: Writer, person: { id: string; handle: string }): Promise<void> {
  await db.$executeRaw`UPDATE "organization" AS o SET "handle" = ${person.handle}
    WHERE o."id" = ${person.id} AND o."handle" <> ${person.handle}
      AND EXISTS (SELECT 1 FROM "member" AS m WHERE m."organizationId" = o."id" AND m."userId" = ${person.id} AND m."role" = 'owner')`;
}

/** Whether a person or a publication other than `except` (a person and their own publication) has `handle`: one namespace for both. */
export async function handleTaken(db: Writer, handle: string, except?: string): Promise<boolean> {
  const others = except ? { NOT: { id: except } } : {};
  const [people, publications] = await Promise.all([db.user.count({ where: { handle, ...others } }), db.organization.count({ where: { handle, ...others } })]);
  return people + publications > 0;
}

/** Ids as better-auth generates them: 32 random characters from [a-zA-Z0-9]. */
export function betterAuthId(): string {
  return generateRandomString(32, "a-z", "A-Z", "0-9");
}
