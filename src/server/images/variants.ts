import "server-only";
import { z } from "zod";
import { DomainError } from "~/server/common/domain-error";
import { getDb, type Db } from "~/server/db";
import { defineJob, JOB_NAMES } from "~/server/jobs/definition";
import { underAccountLock } from "~/server/quotas/account-lock";
import { forgetPublicPages } from "~/server/public-site/forget";
import { log } from "~/server/runtime/log";
import { originalFileName, type ImageFormat } from "~/shared/images";
import { assertUnderStorageQuota } from "./images";
import { processUpload } from "./processing";
import { imageStore } from "./store";

/**
 * An image's variants but its thumbnail, made after its upload has been answered (docs/images.md,
 * Processing): from its stored original, under the rules of upload fairness (its account's turn,
 * the lowest CPU priority), then stored and counted under the account's lock, the image marked
 * complete in the same transaction. Idempotent: an image already complete, or gone, is left alone;
 * a run cut short (a crash, a restart) stored nothing the next run does not write again. An
 * account without room for them keeps the image with its thumbnail alone, its quota never passed.
 * Pages list only the variants that exist: made, the account's public pages are made again.
 */
export async function makeImageVariants(db: Db, imageId: string): Promise<void> {
  const image = await db.image.findUnique({ where: { id: imageId }, include: { account: { select: { plan: true } } } });
  if (!image?.variantsPending) return;
  const size = { width: image.width, height: image.height, format: image.format as ImageFormat };
  const original = await imageStore().read(imageId, originalFileName(size));
  if (!original) return;
  const { files: made } = await processUpload(new Uint8Array(original), { accountId: image.userId, stage: "variants" });
  const store = imageStore();
  // Those already stored stay as they are: an image made before the widths it lacks (the
  // image_variant_ladder migration), or the files a run cut short left in S3. The image then counts
  // every file its store holds.
  const stored = await store.sizes(imageId);
  const files = made.filter((file) => !stored.has(file.name));
  const adding = files.reduce((total, file) => total + file.data.byteLength, 0);
  const storedBytes = [...stored.values()].reduce((total, bytes) => total + bytes, adding);
  const saved = await underAccountLock(db, image.userId, async (tx) => {
    // Deleted meanwhile, or made by another run: nothing to add.
    const current = await tx.image.findUnique({ where: { id: imageId }, select: { variantsPending: true } });
    if (!current?.variantsPending) return false;
    await assertUnderStorageQuota(tx, { id: image.userId, plan: image.account.plan }, adding);
    await store.save(tx, imageId, files);
    await tx.image.update({ where: { id: imageId }, data: { variantsPending: false, storedBytes } });
    // The account's pages name the new variants from now on (no version: it has no public page).
    await tx.$executeRaw`SELECT "public_content_version_move"(ARRAY["userId"]) FROM "public_content_version" WHERE "userId" = ${image.userId}`;
    return true;
  }).catch((error: unknown) => {
    if (error instanceof DomainError && error.code === "QUOTA_EXCEEDED") {
      log.info({ imageId, adding }, "image variants not stored: the account's storage is full");
      return false;
    }
    throw error;
  });
  if (saved) await forgetPublicPages(image.userId);
  // The image went while its variants were made: an S3 store holds them, the rows do not.
  else if (!(await db.image.findUnique({ where: { id: imageId }, select: { id: true } }))) await store.remove([imageId]);
}

export const makeImageVariantsJob = defineJob({
  name: JOB_NAMES.makeImageVariants,
  payload: z.object({ imageId: z.string().min(1) }),
  run: ({ imageId }) => makeImageVariants(getDb(), imageId),
});
