import "server-only";
import type { Member, MemberPublication } from "~/server/accounts/caller";
import { ownerColumn } from "~/server/accounts/account-sql";
import { getSqlPool } from "~/server/db";
import { PLANS } from "~/shared/plans";
import { isRole } from "~/shared/roles";
import { getAuth } from "./config";

/** The publication a session works in, as the dashboard shows it. */
export interface ActivePublication extends MemberPublication {
  /** Public handle: /{handle}/{blogSlug}. */
  handle: string;
  name: string;
  /** Its owner's name: the public pages' title while none is set (docs/publication.md). */
  ownerName: string;
}

/** A signed-in person: who they are, and the publication their session works in (null: they belong to none). */
export interface SessionUser {
  userId: string;
  email: string;
  name: string;
  /** The person's own handle (their author slug; their own publication's address while they own it). */
  handle: string;
  emailVerified: boolean;
  twoFactorEnabled: boolean;
  publication: ActivePublication | null;
}

/** A signed-in person working in a publication: the dashboard's caller. */
export type SessionMember = SessionUser & Member & { publication: ActivePublication };

/**
 * The session's publication in one statement: the one it chose (session.activeOrganizationId),
 * else the person's own (the publication with their id), else their oldest membership. Read at
 * every request, so a member removed or given another role is refused or limited at once, on
 * every instance (docs/teams.md).
 */
const ACTIVE_PUBLICATION_SQL = `SELECT o."id", o."handle", o."name", o."plan"::text AS "plan", m."role",
  ${ownerColumn("o", "name")} AS "ownerName"
FROM "member" AS m JOIN "organization" AS o ON o."id" = m."organizationId"
WHERE m."userId" = $1
ORDER BY (m."organizationId" = $2) DESC, (m."organizationId" = $1) DESC, m."createdAt", m."id"
LIMIT 1`;

/** The signed-in person of a request, or null. */
export async function getSessionUser(headers: Headers): Promise<SessionUser | null> {
  const session = await getAuth().api.getSession({ headers });
  if (!session) return null;
  const { id, email, name, handle, emailVerified, twoFactorEnabled } = session.user;
  const activeId = (session.session as { activeOrganizationId?: string | null }).activeOrganizationId ?? null;
  const { rows } = await getSqlPool().query<{ id: string; handle: string; name: string; plan: string; role: string; ownerName: string | null }>(ACTIVE_PUBLICATION_SQL, [id, activeId]);
  const row = rows[0];
  const publication: ActivePublication | null =
    row && isRole(row.role) ? { id: row.id, handle: row.handle, name: row.name, ownerName: row.ownerName ?? row.name, plan: PLANS.find((p) => p === row.plan) ?? "free", role: row.role } : null;
  return { userId: id, email, name, handle: handle ?? "", emailVerified, twoFactorEnabled: twoFactorEnabled === true, publication };
}

/** The session's person as the dashboard's caller: null when they belong to no publication. */
export function sessionMember(user: SessionUser | null): SessionMember | null {
  return user?.publication ? (user as SessionMember) : null;
}
