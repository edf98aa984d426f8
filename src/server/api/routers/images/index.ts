import "server-only";
import { createHash } from "node:crypto";
import { z } from "zod";
import { callerAccount } from "~/server/accounts/caller";
import { blogScope } from "~/server/blogs/blog-scope";
import { assertStorageLeft, blogsUsingImage, deleteImage, findImage, listImages, saveImage, storageUsed } from "~/server/images/images";
import { BUSY_RETRY_AFTER_SECONDS, processUpload, UploadsBusyError } from "~/server/images/processing";
import { paginate } from "~/server/common/pagination";
import { requestOrigin } from "~/server/http/public-origin";
import { QUOTAS } from "~/server/quotas/quotas";
import { formatBytes, MAX_IMAGE_BYTES, MAX_IMAGE_PIXELS } from "~/shared/images";
import { runIdempotently } from "../../idempotency";
import { createTRPCRouter, ownerProcedure, procedure } from "../../trpc";
import { deleteImageOutput, imageIdParams, imageOutput, imageView, listImagesInput, listImagesOutput, uploadImageInput } from "./schemas";

const quotas = Object.entries(QUOTAS.imageBytesPerAccount).map(([plan, quota]) => `${plan} ${formatBytes(quota)}`);

const uploadImageProcedure = procedure
  .meta({
    permission: "write:blogs",
    openapi: {
      method: "POST",
      path: "/images",
      tags: ["Images"],
      summary: "Upload an image",
      description:
        "Send the file as the body with its Content-Type (e.g. `curl --data-binary @photo.jpg -H 'Content-Type: image/jpeg'`), or as " +
        "multipart/form-data with a `file` part. JPEG, PNG, WebP, AVIF or GIF, told by the content (never the name or declared type; " +
        `anything else is a 415), at most ${MAX_IMAGE_BYTES / 1024 / 1024} MiB and ${MAX_IMAGE_PIXELS / 1_000_000} megapixels. ` +
        "The server applies the orientation, removes metadata (EXIF, GPS, XMP) and keeps the image with resized variants. " +
        `Storage per account, every file counted: ${quotas.join(", ")}; beyond it a 413 QUOTA_EXCEEDED. ` +
        "Send an Idempotency-Key header to make retries safe (the same key and file within 24 hours replays the first response).",
      successDescription: "The stored image",
      contentTypes: ["multipart/form-data"],
    },
    successStatus: 201,
    idempotent: true,
    rawBody: "image",
    errors: ["INVALID_PARAMETER", "MISSING_REQUIRED_FIELD", "PAYLOAD_TOO_LARGE", "QUOTA_EXCEEDED", "UNSUPPORTED_MEDIA_TYPE", "RESOURCE_CONFLICT"],
  })
  .input(uploadImageInput)
  .output(imageOutput)
  .mutation(async ({ ctx, input, signal }) => {
    const account = callerAccount(ctx.caller);
    await assertStorageLeft(ctx.db, account);
    const bytes = new Uint8Array(await input.file.arrayBuffer());
    // Processed before any transaction opens: seconds of CPU hold no lock and no connection. The
    // signal aborts when the client goes away: its upload is not processed for nobody.
    const processed = await processUpload(bytes, { accountId: account.id, signal }).catch((error: unknown) => {
      if (error instanceof UploadsBusyError) ctx.resHeaders.set("Retry-After", String(BUSY_RETRY_AFTER_SECONDS));
      throw error;
    });
    const file = createHash("sha256").update(bytes).digest("base64url");
    return runIdempotently(ctx, account.id, { file }, 201, async (db) => {
      const image = await saveImage(db, account, processed);
      return { success: true as const, data: { image: imageView(image, requestOrigin(ctx.headers)) } };
    });
  });

const listImagesProcedure = procedure
  .meta({
    permission: "read:blogs",
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
    openapi: {
      method: "DELETE",
      path: "/images/{imageId}",
      tags: ["Images"],
      summary: "Delete an image",
      description: "Deletes the image and every file of it. Blogs showing it stay readable: a cover using it is cleared, Markdown pointing at it shows its alt text.",
    },
    errors: ["RESOURCE_NOT_FOUND"],
    changesPublicPages: true,
  })
  .input(z.object(imageIdParams))
  .output(deleteImageOutput)
  .mutation(async ({ ctx, input }) => {
    await deleteImage(ctx.db, blogScope(ctx.caller), input.imageId);
    return { success: true as const, data: { id: input.imageId, deleted: true as const } };
  });

/** The dashboard's: storage used against the plan's quota (the Usage page). */
const imageStorageProcedure = ownerProcedure.query(async ({ ctx }) => {
  const account = callerAccount(ctx.caller);
  return { used: await storageUsed(ctx.db, account.id), quota: QUOTAS.imageBytesPerAccount[account.plan] };
});

/** The dashboard's: the blogs showing one of the account's images, before it is deleted. */
const imageUsageProcedure = ownerProcedure.input(z.object(imageIdParams)).query(async ({ ctx, input }) => {
  const scope = blogScope(ctx.caller);
  return blogsUsingImage(ctx.db, scope.accountId, (await findImage(ctx.db, scope, input.imageId)).id);
});

/** Images, for API keys (/api/v1) and their owner (/api/trpc) alike. */
export const imagesRouter = createTRPCRouter({
  upload: uploadImageProcedure,
  list: listImagesProcedure,
  get: getImageProcedure,
  delete: deleteImageProcedure,
  storage: imageStorageProcedure,
  usage: imageUsageProcedure,
});
