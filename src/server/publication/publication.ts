import "server-only";
import { randomBytes } from "node:crypto";
import type { Prisma } from "~/generated/prisma/client";
import type { Db, SqlPool } from "~/server/db";
import { DomainError } from "~/server/common/domain-error";
import { isUniqueViolation } from "~/server/db/prisma-errors";
import { publicationUpdateSchema, type NavigationLink, type Publication } from "~/shared/publication";
import type { z } from "zod";

/**
 * An account's publication (docs/publication.md): read with its defaults filled in, and changed
 * by its owner. The row's trigger moves the account's public content version, so the public
 * pages' cache needs no telling here.
 */

type PublicationRow = Prisma.PublicationGetPayload<object>;

/** The publication as shown, from its row (null: never changed, all defaults) and its owner's name. */
export function toPublication(row: PublicationRow | null, ownerName: string): Publication {
  return {
    title: row?.title ?? ownerName,
    description: row?.description ?? "",
    logo: row?.logoImageId ?? null,
    icon: row?.iconImageId ?? null,
    accentColor: row?.accentColor ?? null,
    language: row?.language ?? "en",
    timezone: row?.timezone ?? "UTC",
    navigation: (row?.navigation ?? []) as unknown as NavigationLink[],
    socialLinks: (row?.socialLinks ?? []) as unknown as string[],
    footer: row?.footer ?? "",
    domain: row?.domain ?? null,
    domainVerified: row?.domainVerifiedAt != null,
    updatedAt: row?.updatedAt.toISOString() ?? null,
  };
}

export async function getPublication(db: Db, accountId: string): Promise<Publication> {
  const record = await publicationRecord(db, accountId);
  return toPublication(record.settings, record.ownerName);
}

/** A publication's handle, its owner's name (the title while none is set) and its saved settings (null: all defaults). */
export async function publicationRecord(db: Db, accountId: string): Promise<{ handle: string; ownerName: string; settings: PublicationRow | null }> {
  const account = await db.organization.findUniqueOrThrow({
    where: { id: accountId },
    select: { name: true, handle: true, publication: true, members: { where: { role: "owner" }, select: { user: { select: { name: true } } } } },
  });
  return { handle: account.handle, ownerName: account.members[0]?.user.name ?? account.name, settings: account.publication };
}

/** The TXT record's value that proves a domain is the owner's: new each time the domain changes. */
const domainToken = () => `blogmgr-verify=${randomBytes(18).toString("base64url")}`;

/** An image field's value: null, or the id of an image of the account (any other is refused as unknown, so ids cannot be probed). */
export async function imageColumn(tx: Pick<Prisma.TransactionClient, "$queryRaw">, accountId: string, field: "logo" | "icon", id: string | null | undefined): Promise<string | null | undefined> {
  if (id === undefined || id === null) return id;
  const found = await tx.$queryRaw<unknown[]>`SELECT 1 FROM "image" WHERE "id" = ${id} AND "userId" = ${accountId} FOR KEY SHARE`;
  if (found.length === 0) throw new DomainError("INVALID_PARAMETER", `Invalid parameter: ${field}`, `${field} must be the id of an image in this account, or null`, field);
  return id;
}

/**
 * Changes the fields given (validated by publicationUpdateSchema); a new domain starts unverified
 * with a new token, and a domain another publication has is a conflict.
 */
export async function updatePublication(db: Db, accountId: string, input: z.output<typeof publicationUpdateSchema>): Promise<Publication> {
  const { logo, icon, domain, navigation, socialLinks, ...plain } = input;
  try {
    await db.$transaction(async (tx) => {
      const current = await tx.publication.findUnique({ where: { userId: accountId }, select: { domain: true } });
      const data = {
        ...plain,
        ...(navigation !== undefined && { navigation }),
        ...(socialLinks !== undefined && { socialLinks }),
        logoImageId: await imageColumn(tx, accountId, "logo", logo),
        iconImageId: await imageColumn(tx, accountId, "icon", icon),
        ...(domain !== undefined &&
          domain !== (current?.domain ?? null) && { domain, domainToken: domain === null ? null : domainToken(), domainVerifiedAt: null }),
      };
      await tx.publication.upsert({ where: { userId: accountId }, create: { userId: accountId, ...data }, update: data });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new DomainError("RESOURCE_CONFLICT", "Domain already in use", "another publication has this domain", "domain");
    throw error;
  }
  return getPublication(db, accountId);
}

/** The publication for the public site's pages, read on the pool their content is read on (src/server/public-site/replay-fence.ts). */
export async function readPublication(pool: SqlPool, owner: { id: string; name: string }): Promise<Publication> {
  const { rows } = await pool.query<PublicationRow>(`SELECT * FROM "publication" WHERE "userId" = $1`, [owner.id]);
  return toPublication(rows[0] ?? null, owner.name);
}
