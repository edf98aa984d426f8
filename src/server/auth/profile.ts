import "server-only";
import { getSqlPool } from "~/server/db";

/** A person's public identity (docs/public-blog.md, Authors), as their account settings edit it. */
export interface PersonProfile {
  name: string;
  /** Their handle: their author pages' slug, and their own publication's address. */
  handle: string;
  bio: string;
}

/** The signed-in person's profile, by their user id. */
export async function readPersonProfile(userId: string): Promise<PersonProfile> {
  const { rows } = await getSqlPool().query<PersonProfile>(`SELECT "name", "handle", "bio" FROM "user" WHERE "id" = $1`, [userId]);
  if (!rows[0]) throw new Error(`no person ${userId}`);
  return rows[0];
}
