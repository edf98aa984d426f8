import "server-only";
import { createHash } from "node:crypto";
import { z } from "zod";
import { callerAccount } from "~/server/accounts/caller";
import { blogScope } from "~/server/blogs/blog-scope";
import {
  assertStorageLeft,
  deleteImage,
  deleteImages,
  findImage,
  findUploadedImage,
  listImageLibrary,
  listImages,
  saveImage,
  storageUsed,
  type ImageRecord,
} from "~/server/images/images";
import { BUSY_RETRY_AFTER_SECONDS, processUpload, UploadsBusyError } from "~/server/images/processing";
import { paginate } from "~/server/common/pagination";
import { requestOrigin } from "~/server/http/public-origin";
import { QUOTAS } from "~/server/quotas/quotas";
import { formatBytes, MAX_IMAGE_BYTES, MAX_IMAGE_PIXELS, sanitizeFileName } from "~/shared/images";
import { runIdempotently } from "../../idempotency";
import { createTRPCRouter, ownerProcedure, procedure } from "../../trpc";
import {
  deleteImageInput,
  deleteImageOutput,
  deleteImagesInput,
  imageIdParams,
  imageLibraryInput,
  imageOutput,
  imageView,
  listImagesInput,
  listImagesOutput,
  uploadImageInput,
} from "./schemas";

const quotas = Object.entries(QUOTAS.imageBytesPerAccount).map(([plan, quota]) => `${plan} ${formatBytes(quota)}`);

const uploadImageProcedure = procedure
  .meta({
    permission: "write:blogs",
    minRole: "contributor",
    openapi: {
      method: "POST",
      path: "/images",
      tags: ["Images"],
      summary: "Upload an image",
      description:
        "Send the file as the body with its Content-Type (e.g. `curl --data-binary @photo.jpg -H 'Content-Type: image/jpeg'`), or as " +
        "multipart/form-data with a `file` part. JPEG, PNG, WebP, AVIF or GIF, told by the content (never the name or declared type; " +
        `anything else is a 415), at most ${MAX_IMAGE_BYTES / 1024 / 1024} MiB and ${MAX_IMAGE_PIXELS / 1_000_000} megapixels. ` +
        "The server applies the orientation, removes metadata (EXIF, GPS, XMP) and keeps the image with resized variants: the answer " +
        "lists the original and its smallest variant, the others follow within seconds (GET /images/{imageId} lists them once made). " +
        "The same bytes uploaded again by the account answer the image already stored, with 200 instead of 201; nothing is stored twice. " +
        `Storage per account, every file counted: ${quotas.join(", ")}; beyond it a 413 QUOTA_EXCEEDED. ` +
        "Send an Idempotency-Key header to make retries safe (the same key and file within 24 hours replays the first response).",
      successDescription: "The stored image",
      contentTypes: ["multipart/form-data"],
    },
    successStatus: 201,
    alternateSuccess: { status: 200, description: "The image these bytes already are: the account uploaded them before" },
    idempotent: true,
    rawBody: "image",
    errors: ["INVALID_PARAMETER", "MISSING_REQUIRED_FIELD", "PAYLOAD_TOO_LARGE", "QUOTA_EXCEEDED", "UNSUPPORTED_MEDIA_TYPE", "RESOURCE_CONFLICT"],
  })
  .input(uploadImageInput)
  .output(imageOutput)
  .mutation(async ({ ctx, input, signal }) => {
    const account = callerAccount(ctx.caller);
    const bytes = new Uint8Array(await input.file.arrayBuffer());
    const sha256 = createHash("sha256").update(bytes).digest("base64url");
    const origin = requestOrigin(ctx.headers);
    const answer = ({ image, created }: { image: ImageRecord; created: boolean }) => {
      if (!created && ctx.successStatus) ctx.successStatus.alternate = true;
      return { success: true as const, data: { image: imageView(image, origin) } };
    };
    // Bytes the account already stores answer at once, unprocessed; with an Idempotency-Key its
    // replay comes first, and saveImage finds them under the account's lock.
    const stored = ctx.headers.has("idempotency-key") ? null : await findUploadedImage(ctx.db, account.id, sha256);
    if (stored) return answer({ image: stored, created: false });
    await assertStorageLeft(ctx.db, account);
    // Processed before any transaction opens: seconds of CPU hold no lock and no connection. The
    // signal aborts when the client goes away: its upload is not processed for nobody.
    const processed = await processUpload(bytes, { accountId: account.id, signal }).catch((error: unknown) => {
      if (error instanceof UploadsBusyError) ctx.resHeaders.set("Retry-After", String(BUSY_RETRY_AFTER_SECONDS));
      throw error;
    });
    const fileName = sanitizeFileName(input.file instanceof File ? input.file.name : "", processed);
    return runIdempotently(ctx, account.id, { file: sha256 }, 201, async (db) => answer(await saveImage(db, account, processed, { sha256, fileName })));
  });

const listImagesProcedure = procedure
  .meta({
    permission: "read:blogs",
    minRole: "contributor",
    openapi: { method: "GET", path: "/images", tags: ["Images"], summary: "List images", description: "The account's images, newest first." },
    errors: ["INVALID_PARAMETER"],
  })
  .input(listImagesInput)
  .output(listImagesOutput)
  .query(async ({ ctx, input }) => {
    const { images, total } = await listImages(ctx.db, blogScope(ctx.caller), input);
    const origin = requestOrigin(ctx.headers);
    return { success: true as const, data: { images: images.map((image) => imageView(image, origin)), pagination: paginate(input.page, input.limit, total) } };
  });

const getImageProcedure = procedure
  .meta({
    permission: "read:blogs",
    minRole: "contributor",
    openapi: { method: "GET", path: "/images/{imageId}", tags: ["Images"], summary: "Get an image by id" },
    errors: ["RESOURCE_NOT_FOUND"],
  })
  .input(z.object(imageIdParams))
  .output(imageOutput)
  .query(async ({ ctx, input }) => {
    const image = await findImage(ctx.db, blogScope(ctx.caller), input.imageId);
    return { success: true as const, data: { image: imageView(image, requestOrigin(ctx.headers)) } };
  });

const deleteImageProcedure = procedure
  .meta({
    permission: "delete:blogs",
    minRole: "editor",
    openapi: {
      method: "DELETE",
      path: "/images/{imageId}",
      tags: ["Images"],
      summary: "Delete an image",
      description:
        "Deletes the image and every file of it. An image a blog uses (as its cover, or in its Markdown) is refused with 409 IMAGE_IN_USE, " +
        "whose details name those blogs; with `force=true` it is deleted anyway: covers using it are cleared, Markdown pointing at it shows its alt text.",
    },
    errors: ["RESOURCE_NOT_FOUND", "IMAGE_IN_USE"],
    changesPublicPages: true,
  })
  .input(deleteImageInput)
  .output(deleteImageOutput)
  .mutation(async ({ ctx, input }) => {
    await deleteImage(ctx.db, blogScope(ctx.caller), input.imageId, { force: input.force });
    return { success: true as const, data: { id: input.imageId, deleted: true as const } };
  });

/** The dashboard's: storage used against the plan's quota (the Usage page). */
const imageStorageProcedure = ownerProcedure.meta({ minRole: "contributor" }).query(async ({ ctx }) => {
  const account = callerAccount(ctx.caller);
  return { used: await storageUsed(ctx.db, account.id), quota: QUOTAS.imageBytesPerAccount[account.plan] };
});

/** The dashboard's library: a page of the account's images (or the unused ones), each with the blogs using it. */
const imageLibraryProcedure = ownerProcedure.meta({ minRole: "contributor" }).input(imageLibraryInput).query(async ({ ctx, input }) => {
  const { images, total } = await listImageLibrary(ctx.db, callerAccount(ctx.caller).id, input);
  const origin = requestOrigin(ctx.headers);
  return { images: images.map((image) => ({ ...imageView(image, origin), usedBy: image.usedBy })), pagination: paginate(input.page, input.limit, total) };
});

/** The dashboard's bulk delete: all or none; in-use images refused (IMAGE_IN_USE naming their blogs) unless `force`. */
const deleteImagesProcedure = ownerProcedure.meta({ minRole: "editor" })
  .meta({ changesPublicPages: true })
  .input(deleteImagesInput)
  .mutation(async ({ ctx, input }) => {
    await deleteImages(ctx.db, blogScope(ctx.caller), input.imageIds, { force: input.force });
    return { deleted: input.imageIds };
  });

/** Images, for API keys (/api/v1) and their owner (/api/trpc) alike. */
export const imagesRouter = createTRPCRouter({
  upload: uploadImageProcedure,
  list: listImagesProcedure,
  get: getImageProcedure,
  delete: deleteImageProcedure,
  storage: imageStorageProcedure,
  library: imageLibraryProcedure,
  deleteMany: deleteImagesProcedure,
});
