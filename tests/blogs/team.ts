// A publication with members for the tests of a team's writing (docs/authors.md): each person is
// a test account of their own, made a member of the first one's publication with a role and
// leaving their own, so their dashboard sessions work in the team's.
import { randomUUID } from "node:crypto";
import type { Role } from "~/shared/roles";
import { createTestAccount, db, type TestAccount } from "../support/api";
import { signIn, trpc, type TrpcAnswer } from "../support/dashboard";

export interface TeamMember extends TestAccount {
  /** Their user id: a test account's founder has the id of the publication they founded. */
  userId: string;
  role: Role;
  /** A dashboard session working in the team's publication. */
  cookie: string;
}

/** `person` joins publication `publicationId` as `role`, as an accepted invitation leaves them. */
export async function addMember(publicationId: string, userId: string, role: Role): Promise<void> {
  await db().$executeRaw`INSERT INTO "member" ("id", "organizationId", "userId", "role", "createdAt") VALUES (${randomUUID()}, ${publicationId}, ${userId}, ${role}, now())`;
}

/** The publication of a new owner, and one new person for each role given, each signed in to it. */
export async function createTeam<R extends Role>(roles: readonly R[]): Promise<{ owner: TeamMember; members: Record<R, TeamMember> }> {
  const founder = await createTestAccount();
  const owner: TeamMember = { ...founder, userId: founder.id, role: "owner", cookie: await signIn(founder) };
  const members = {} as Record<R, TeamMember>;
  for (const role of roles) {
    const person = await createTestAccount();
    await addMember(founder.id, person.id, role);
    // The team's publication is theirs alone (they left their own): their sessions work in it
    // whatever the dashboard's switcher does (src/server/auth/session-user.ts).
    await db().$executeRaw`DELETE FROM "member" WHERE "organizationId" = ${person.id} AND "userId" = ${person.id}`;
    const cookie = await signIn(person);
    members[role] = { ...person, userId: person.id, role, cookie };
  }
  return { owner, members };
}

/** A dashboard call's data, or throws with the answer. */
export function dataOf(answer: TrpcAnswer): any {
  if (answer.status !== 200) throw new Error(`${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.result.data;
}

export { trpc };
