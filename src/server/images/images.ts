import "server-only";
import { randomBytes } from "node:crypto";
import type { Prisma } from "~/generated/prisma/client";
import type { Db } from "~/server/db";
import { underAccountLock } from "~/server/quotas/account-lock";
import { DomainError } from "~/server/common/domain-error";
import { QUOTAS } from "~/server/quotas/quotas";
import type { Plan } from "~/shared/plans";
import { formatBytes, IMAGES_PATH } from "~/shared/images";
import type { BlogScope } from "~/server/blogs/blog-scope";
import type { ProcessedImage } from "./process-image";
import { forgetImageFiles, imageStore } from "./store";

/** An image's row: what the API shows of it is made from it (imageView, src/server/api/routers/images/schemas.ts). */
export type ImageRecord = Prisma.ImageGetPayload<object>;

interface ImageAccount {
  id: string;
  plan: Plan;
}

/**
 * Records a processed upload and stores its files, if the account's storage quota allows
 * (docs/images.md). The check and the write hold the account's row lock, so concurrent uploads of
 * one account, on any number of servers, are counted one after the other and never pass the quota
 * together. `db` may already be a transaction (an Idempotency-Key's), which then holds the lock.
 * Files an S3 store wrote for a transaction that then failed are removed.
 */
export async function saveImage(db: Db | Prisma.TransactionClient, account: ImageAccount, image: ProcessedImage): Promise<ImageRecord> {
  const id = randomBytes(16).toString("hex");
  const store = imageStore();
  const storedBytes = image.files.reduce((total, file) => total + file.data.byteLength, 0);
  const record = async (tx: Prisma.TransactionClient) => {
    await assertUnderStorageQuota(tx, account, storedBytes);
    const row = await tx.image.create({
      data: { id, userId: account.id, width: image.width, height: image.height, format: image.format, bytes: image.files[0]!.data.byteLength, storedBytes },
    });
    await store.save(tx, id, image.files);
    return row;
  };
  try {
    return await underAccountLock(db, account.id, record);
  } catch (error) {
    await store.remove([id]).catch(() => undefined);
    throw error;
  }
}

/** Bytes the account's images take in the store, all files counted. */
export async function storageUsed(db: Pick<Db, "$queryRaw">, accountId: string): Promise<number> {
  const [row] = await db.$queryRaw<{ used: bigint }[]>`SELECT COALESCE(sum("storedBytes"), 0)::bigint AS "used" FROM "image" WHERE "userId" = ${accountId}`;
  return Number(row?.used ?? 0);
}

async function assertUnderStorageQuota(tx: Prisma.TransactionClient, account: ImageAccount, adding: number): Promise<void> {
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
    SELECT m[1] FROM "blog", regexp_matches("content", ${`${IMAGES_PATH}/([A-Za-z0-9]+)/`}, 'g') AS m
    WHERE "userId" = ${accountId} AND NOT "allowApiAccess"`;
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
 * Deletes one of the images the caller may see, and its files. Blogs showing it stay readable: a
 * cover is cleared (the foreign key), Markdown pointing at it shows its alt text.
 */
export async function deleteImage(db: Db, scope: BlogScope, imageId: string): Promise<void> {
  const { count } = await db.image.deleteMany({ where: { AND: [{ id: imageId }, await imageScopeWhere(db, scope)] } });
  if (count === 0) throw imageNotFound(imageId);
  forgetImageFiles([imageId]);
  await imageStore().remove([imageId]);
}

/** Removes every image file of an account about to be deleted (its rows go with the account). */
export async function removeAccountImages(db: Db, accountId: string): Promise<void> {
  const ids = (await db.image.findMany({ where: { userId: accountId }, select: { id: true } })).map(({ id }) => id);
  forgetImageFiles(ids);
  await imageStore().remove(ids);
}

/** The account's blogs showing the image: as cover, or in their Markdown. */
export async function blogsUsingImage(db: Db, accountId: string, imageId: string): Promise<{ id: string; title: string }[]> {
  return db.blog.findMany({
    where: { userId: accountId, OR: [{ coverImageId: imageId }, { content: { contains: `/images/${imageId}/` } }] },
    select: { id: true, title: true },
    orderBy: { updatedAt: "desc" },
  });
}
