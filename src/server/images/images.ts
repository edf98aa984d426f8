import "server-only";
import { randomBytes } from "node:crypto";
import { Prisma } from "~/generated/prisma/client";
import { inTransaction, type Db } from "~/server/db";
import { underAccountLock } from "~/server/quotas/account-lock";
import { DomainError } from "~/server/common/domain-error";
import { QUOTAS } from "~/server/quotas/quotas";
import type { Plan } from "~/shared/plans";
import { formatBytes } from "~/shared/images";
import type { BlogScope } from "~/server/blogs/blog-scope";
import type { ProcessedImage } from "./process-image";
import { forgetImageFiles, imageStore, imageStoreFlag } from "./store";
import { JOB_NAMES } from "~/server/jobs/definition";

/** An image's row: what the API shows of it is made from it (imageView, src/server/api/routers/images/schemas.ts). */
export type ImageRecord = Prisma.ImageGetPayload<object>;

interface ImageAccount {
  id: string;
  plan: Plan;
}

/** What an upload says of itself beside its pixels: its bytes' hash and its file's name, sanitized. */
export interface UploadIdentity {
  sha256: string;
  fileName: string;
  /** The import bringing the image in (undoing it deletes the image when nothing uses it). */
  importId?: string;
}

/** The image the account already stores for these bytes, if any: uploaded again, they answer it. */
export function findUploadedImage(db: Db | Prisma.TransactionClient, accountId: string, sha256: string): Promise<ImageRecord | null> {
  return db.image.findUnique({ where: { userId_sha256: { userId: accountId, sha256 } } });
}

/**
 * Records a processed upload and stores its files, if the account's storage quota allows
 * (docs/images.md); the same bytes already stored by the account answer that image instead
 * (`created` false), nothing stored twice. The check and the write hold the account's row lock, so
 * concurrent uploads of one account, on any number of servers, are counted one after the other,
 * never pass the quota together, and identical ones make one image (the unique index on the hash
 * backs it). `db` may already be a transaction (an Idempotency-Key's), which then holds the lock.
 * Files an S3 store wrote for a transaction that then failed are removed. The image's other
 * variants are queued in the same transaction (the image_variants job, ./variants.ts).
 */
export async function saveImage(
  db: Db | Prisma.TransactionClient,
  account: ImageAccount,
  image: ProcessedImage,
  upload: UploadIdentity,
): Promise<{ image: ImageRecord; created: boolean }> {
  const id = randomBytes(16).toString("hex");
  const store = imageStore();
  const storedBytes = image.files.reduce((total, file) => total + file.data.byteLength, 0);
  const record = async (tx: Prisma.TransactionClient) => {
    const existing = await findUploadedImage(tx, account.id, upload.sha256);
    if (existing) return { image: existing, created: false };
    await assertUnderStorageQuota(tx, account, storedBytes);
    const row = await tx.image.create({
      data: {
        id,
        userId: account.id,
        width: image.width,
        height: image.height,
        format: image.format,
        bytes: image.files[0]!.data.byteLength,
        storedBytes,
        ...upload,
        variantsPending: image.variantsPending,
      },
    });
    await store.save(tx, id, image.files);
    if (image.variantsPending) await queueImageVariants(tx, id);
    return { image: row, created: true };
  };
  try {
    return await underAccountLock(db, account.id, record);
  } catch (error) {
    await store.remove([id]).catch(() => undefined);
    throw error;
  }
}

/**
 * Queues the making of an image's other variants (./variants.ts), in the transaction recording it:
 * one job per image (its key), retried after a failure or a crash of the worker running it. Before
 * the job engine is installed (the server installs it as it starts) nothing is queued: the worker's
 * start-up queues the variants still missing (QUEUE_MISSING_IMAGE_VARIANTS_SQL).
 */
async function queueImageVariants(tx: Prisma.TransactionClient, imageId: string): Promise<void> {
  const [engine] = await tx.$queryRaw<{ installed: boolean }[]>`SELECT "job_engine_installed"() AS "installed"`;
  if (engine?.installed) await tx.$executeRawUnsafe(QUEUE_MISSING_IMAGE_VARIANTS_SQL, ...queueImageVariantsParams(imageId));
}

/**
 * SQL queueing the variants job of each image still waiting for its variants, or of the one image
 * `$4` names; a job already queued for an image is left as it is (its key, unsafe_dedupe).
 */
export const QUEUE_MISSING_IMAGE_VARIANTS_SQL = `SELECT count(graphile_worker.add_job($1::text, json_build_object('imageId', i."id"),
    job_key := $1::text || ':' || i."id", job_key_mode := 'unsafe_dedupe', max_attempts := $2::int, flags := ARRAY[$3::text]))
  FROM "image" AS i WHERE i."variantsPending" AND ($4::text IS NULL OR i."id" = $4::text)`;

/** QUEUE_MISSING_IMAGE_VARIANTS_SQL's parameters: for `imageId`, or every image when null; made where this server's store reads them. */
export const queueImageVariantsParams = (imageId: string | null) => [JOB_NAMES.makeImageVariants, IMAGE_VARIANTS_ATTEMPTS, imageStoreFlag(), imageId] as const;

/** A failing image's variants are retried this many times (graphile-worker's backoff: about 3 hours in all), then it keeps its thumbnail alone. */
const IMAGE_VARIANTS_ATTEMPTS = 8;

/** Bytes the account's images take in the store, all files counted. */
export async function storageUsed(db: Pick<Db, "$queryRaw">, accountId: string): Promise<number> {
  const [row] = await db.$queryRaw<{ used: bigint }[]>`SELECT COALESCE(sum("storedBytes"), 0)::bigint AS "used" FROM "image" WHERE "userId" = ${accountId}`;
  return Number(row?.used ?? 0);
}

export async function assertUnderStorageQuota(tx: Prisma.TransactionClient, account: ImageAccount, adding: number): Promise<void> {
  const used = await storageUsed(tx, account.id);
  if (used + adding > QUOTAS.imageBytesPerAccount[account.plan]) throw storageQuotaExceeded(account, used, adding);
}

/**
 * Refuses an upload at once when the account has no storage left at all, before it waits for or
 * takes any processing (docs/security.md, Upload fairness); whether the processed image fits is
 * decided when it is saved (saveImage).
 */
export async function assertStorageLeft(db: Db, account: ImageAccount): Promise<void> {
  const used = await storageUsed(db, account.id);
  if (used >= QUOTAS.imageBytesPerAccount[account.plan]) throw storageQuotaExceeded(account, used);
}

function storageQuotaExceeded(account: ImageAccount, used: number, adding?: number): DomainError {
  const need = adding === undefined ? "no room is left" : `the image needs ${formatBytes(adding)} (its variants included)`;
  return new DomainError(
    "QUOTA_EXCEEDED",
    "Storage quota exceeded",
    `The ${account.plan} plan stores at most ${formatBytes(QUOTAS.imageBytesPerAccount[account.plan])} of images; this account uses ${formatBytes(used)} and ` +
      `${need}: delete images or move to a larger plan`,
  );
}

/**
 * The images a caller may see (docs/images.md, Who sees an image): the owner every image of the
 * account; an API key those that no blog outside its scope shows, as cover or in its Markdown,
 * since deleting one would change a blog the key cannot see.
 */
async function imageScopeWhere(db: Db, scope: BlogScope): Promise<Prisma.ImageWhereInput> {
  if (!scope.apiAccessOnly) return { userId: scope.accountId };
  return { userId: scope.accountId, id: { notIn: await imagesShownByHiddenBlogs(db, scope.accountId) } };
}

/** Ids of the images the account's blogs with API access off show: their covers and the image addresses in their Markdown. */
export async function imagesShownByHiddenBlogs(db: Pick<Db, "$queryRaw">, accountId: string): Promise<string[]> {
  const rows = await db.$queryRaw<{ id: string }[]>`
    SELECT "coverImageId" AS "id" FROM "blog" WHERE "userId" = ${accountId} AND NOT "allowApiAccess" AND "coverImageId" IS NOT NULL
    UNION
    SELECT bi."imageId" FROM "blog" AS b JOIN "blog_image" AS bi ON bi."blogId" = b."id"
    WHERE b."userId" = ${accountId} AND NOT b."allowApiAccess"`;
  return rows.map(({ id }) => id);
}

/** One of the images the caller may see; another account's, or one outside the scope, is not found, as an unknown id is. */
export async function findImage(db: Db, scope: BlogScope, imageId: string): Promise<ImageRecord> {
  const image = await db.image.findFirst({ where: { AND: [{ id: imageId }, await imageScopeWhere(db, scope)] } });
  if (!image) throw imageNotFound(imageId);
  return image;
}

const imageNotFound = (imageId: string) => new DomainError("RESOURCE_NOT_FOUND", "Resource not found", `No image ${imageId}`);

/** The images the caller may see, newest first, one page of them, and how many there are. */
export async function listImages(db: Db, scope: BlogScope, { page, limit }: { page: number; limit: number }): Promise<{ images: ImageRecord[]; total: number }> {
  const where = await imageScopeWhere(db, scope);
  const [images, total] = await Promise.all([
    db.image.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], skip: (page - 1) * limit, take: limit }),
    db.image.count({ where }),
  ]);
  return { images, total };
}

/**
 * One page of the owner's library (the dashboard's Images page), newest first: every image of the
 * account, or only those no blog uses (`unused`), each with the blogs using it, and how many match.
 */
export async function listImageLibrary(
  db: Db,
  accountId: string,
  { page, limit, unused }: { page: number; limit: number; unused: boolean },
): Promise<{ images: (ImageRecord & { usedBy: ImageUse[] })[]; total: number }> {
  const filter = unused
    ? Prisma.sql`AND NOT EXISTS (SELECT 1 FROM "blog" WHERE "coverImageId" = i."id")
        AND NOT EXISTS (SELECT 1 FROM "blog_image" AS bi JOIN "blog" AS b ON b."id" = bi."blogId" WHERE bi."imageId" = i."id" AND b."userId" = ${accountId})`
    : Prisma.empty;
  const [rows, [count]] = await Promise.all([
    db.$queryRaw<{ id: string }[]>`SELECT i."id" FROM "image" AS i WHERE i."userId" = ${accountId} ${filter}
      ORDER BY i."createdAt" DESC, i."id" DESC LIMIT ${limit} OFFSET ${(page - 1) * limit}`,
    db.$queryRaw<{ total: bigint }[]>`SELECT count(*) AS "total" FROM "image" AS i WHERE i."userId" = ${accountId} ${filter}`,
  ]);
  const ids = rows.map(({ id }) => id);
  const [images, uses] = await Promise.all([db.image.findMany({ where: { id: { in: ids } } }), imageUses(db, accountId, ids)]);
  const byId = new Map(images.map((image) => [image.id, image]));
  return {
    images: ids.flatMap((id) => {
      const image = byId.get(id);
      return image ? [{ ...image, usedBy: uses.get(id) ?? [] }] : [];
    }),
    total: Number(count?.total ?? 0),
  };
}

/**
 * Deletes one of the images the caller may see, and its files. An image a blog uses (cover or
 * Markdown) is refused with IMAGE_IN_USE naming those blogs, unless `force`: then covers using it
 * are cleared (the foreign key) and Markdown pointing at it shows its alt text.
 */
export async function deleteImage(db: Db, scope: BlogScope, imageId: string, { force = false }: { force?: boolean } = {}): Promise<void> {
  await deleteImages(db, scope, [imageId], { force });
}

/**
 * Deletes several of the images the caller may see, all or none: one unknown is not found, one in
 * use (without `force`) refuses them all, naming each image's blogs.
 */
export async function deleteImages(db: Db, scope: BlogScope, imageIds: string[], { force = false }: { force?: boolean } = {}): Promise<void> {
  const ids = [...new Set(imageIds)];
  await inTransaction(db, async (tx) => {
    const visible = await tx.image.findMany({ where: { AND: [{ id: { in: ids } }, await imageScopeWhere(db, scope)] }, select: { id: true } });
    const unknown = ids.find((id) => !visible.some((image) => image.id === id));
    if (unknown) throw imageNotFound(unknown);
    if (!force) {
      const uses = await imageUses(tx, scope.accountId, ids);
      if (uses.size > 0) throw imageInUse(uses);
    }
    await tx.image.deleteMany({ where: { id: { in: ids } } });
  });
  forgetImageFiles(ids);
  await imageStore().remove(ids);
}

/** A blog using an image: as its cover, in its Markdown, or both. */
export interface ImageUse {
  id: string;
  title: string;
  cover: boolean;
  content: boolean;
}

/**
 * The account's blogs using each of these images, most recently updated first: covers by the
 * blog's foreign key, Markdown by blog_image (kept by a trigger from each blog's content), both
 * by index.
 */
async function imageUses(db: Pick<Db, "$queryRaw">, accountId: string, imageIds: string[]): Promise<Map<string, ImageUse[]>> {
  if (imageIds.length === 0) return new Map();
  const rows = await db.$queryRaw<(ImageUse & { imageId: string })[]>`
    SELECT u."imageId", b."id", b."title", bool_or(u."cover") AS "cover", bool_or(NOT u."cover") AS "content"
    FROM (
      SELECT "coverImageId" AS "imageId", "id" AS "blogId", true AS "cover" FROM "blog" WHERE "coverImageId" = ANY(${imageIds})
      UNION ALL
      SELECT "imageId", "blogId", false FROM "blog_image" WHERE "imageId" = ANY(${imageIds})
    ) AS u
    JOIN "blog" AS b ON b."id" = u."blogId" AND b."userId" = ${accountId}
    GROUP BY u."imageId", b."id", b."title", b."updatedAt"
    ORDER BY b."updatedAt" DESC, b."id"`;
  const uses = new Map<string, ImageUse[]>();
  for (const { imageId, ...use } of rows) uses.set(imageId, [...(uses.get(imageId) ?? []), use]);
  return uses;
}

/** The blogs using each image, in words (IMAGE_IN_USE's details): a client reads which, and how. */
function imageInUse(uses: Map<string, ImageUse[]>): DomainError {
  const described = [...uses].map(([imageId, blogs]) => {
    const each = blogs.map((blog) => `"${blog.title}" (${blog.id}, ${[blog.cover && "cover", blog.content && "content"].filter(Boolean).join(" and ")})`);
    return `image ${imageId} is used by ${each.join(", ")}`;
  });
  return new DomainError(
    "IMAGE_IN_USE",
    "Image in use",
    `${described.join("; ")}. Remove it from those blogs, or delete with ?force=true: covers using it are cleared and Markdown pointing at it shows its alt text`,
  );
}

/**
 * Deletes the images an import brought in that nothing uses any more (no blog's cover or
 * Markdown, no publication's logo or icon): undoing the import (src/server/imports/imports.ts).
 */
export async function deleteUnusedImportedImages(db: Db, accountId: string, importId: string): Promise<void> {
  const rows = await db.$queryRaw<{ id: string }[]>`
    DELETE FROM "image" AS i WHERE i."importId" = ${importId} AND i."userId" = ${accountId}
      AND NOT EXISTS (SELECT 1 FROM "blog" WHERE "coverImageId" = i."id")
      AND NOT EXISTS (SELECT 1 FROM "blog_image" WHERE "imageId" = i."id")
      AND NOT EXISTS (SELECT 1 FROM "publication" WHERE "logoImageId" = i."id" OR "iconImageId" = i."id")
    RETURNING i."id"`;
  const ids = rows.map(({ id }) => id);
  if (ids.length === 0) return;
  forgetImageFiles(ids);
  await imageStore().remove(ids);
}

/** Removes every image file of an account about to be deleted (its rows go with the account). */
export async function removeAccountImages(db: Db, accountId: string): Promise<void> {
  const ids = (await db.image.findMany({ where: { userId: accountId }, select: { id: true } })).map(({ id }) => id);
  forgetImageFiles(ids);
  await imageStore().remove(ids);
}
