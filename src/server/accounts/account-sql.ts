import "server-only";
/**
 * SQL about a publication's owner, for statements that read a publication (table "organization")
 * under an alias: its owner is the member of role owner (docs/teams.md), one per publication.
 */

/** A column of the owner of the publication aliased `alias`: their name is its pages' title while none is set (docs/publication.md). */
export function ownerColumn(alias: string, column: "name" | "image" | "email"): string {
  return `(SELECT u."${column}" FROM "member" AS m JOIN "user" AS u ON u."id" = m."userId" WHERE m."organizationId" = ${alias}."id" AND m."role" = 'owner')`;
}
