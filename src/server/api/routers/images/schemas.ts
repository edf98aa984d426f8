import "server-only";
import { z } from "zod";
import { contentTypeOf, imageFiles, imagePath, type ImageFormat } from "~/shared/images";
import type { ImageRecord } from "~/server/images/images";
import { DEFAULT_PAGE, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "~/server/common/pagination";
import { booleanParam, integerParam } from "../../query-params";
import { pagePaginationSchema, successEnvelope } from "../blogs/schemas";

/** The API's contract for images (docs/images.md), as the OpenAPI document shows it. */

const imageFileSchema = z.object({
  url: z.url().meta({ description: "Where the file is served (immutable: cache it for good)" }),
  width: z.int().meta({ description: "Width in pixels" }),
  contentType: z.string().meta({ description: "The file's media type" }),
});

export const imageSchema = z
  .object({
    id: z.string().meta({ description: "Unique identifier of the image" }),
    url: z.url().meta({ description: "The image as stored (orientation applied, metadata removed); use it in Markdown: `![alt text](url)`" }),
    width: z.int().meta({ description: "Width in pixels" }),
    height: z.int().meta({ description: "Height in pixels" }),
    contentType: z.string().meta({ description: "Media type of the image at `url`, read from the upload's content" }),
    fileName: z.string().meta({ description: "The uploaded file's name, as sent (path, control characters and extra spaces removed; at most 200 characters)" }),
    bytes: z.int().meta({ description: "Size of the file at `url`" }),
    storedBytes: z.int().meta({ description: "Size of every file of the image, variants included: what the storage quota counts" }),
    variants: z.array(imageFileSchema).meta({
      description:
        "Resized copies at 480, 664, 960, 1328, 1600 and 2400 px wide (only those narrower than the image), in AVIF, WebP and the image's format: " +
        "those made so far (right after the upload, the 480 px one in the image's format; the rest within seconds)",
    }),
    createdAt: z.iso.datetime().meta({ description: "Upload time, ISO 8601" }),
  })
  .meta({ id: "Image" });

export type ImageView = z.infer<typeof imageSchema>;

/** An image as the API shows it, its URLs under `origin`. */
export function imageView(image: ImageRecord, origin: string): ImageView {
  const reference = { id: image.id, width: image.width, height: image.height, format: image.format as ImageFormat, variantsPending: image.variantsPending };
  const [, ...variants] = imageFiles(reference);
  return {
    id: image.id,
    url: `${origin}${imagePath(reference)}`,
    width: image.width,
    height: image.height,
    contentType: contentTypeOf(reference.format),
    fileName: image.fileName,
    bytes: image.bytes,
    storedBytes: image.storedBytes,
    variants: variants.map((file) => ({ url: `${origin}${imagePath(reference, file.name)}`, width: file.width, contentType: contentTypeOf(file.format) })),
    createdAt: image.createdAt.toISOString(),
  };
}

/**
 * The upload, as both doors hand it over: /api/v1 reads the raw or multipart body itself
 * (src/server/api/rest/image-body.ts); the dashboard posts a form, which tRPC parses.
 */
export const uploadImageInput = z.preprocess(
  (value) => (value instanceof FormData ? { file: value.get("file") ?? undefined } : value),
  z.object({
    file: z.instanceof(Blob, { message: "file must be an image file" }).meta({ description: "The image file", format: "binary" }),
  }),
);

export const imageIdParams = { imageId: z.string().min(1).meta({ description: "The image's id" }) };

export const deleteImageInput = z.object({
  ...imageIdParams,
  force: booleanParam("force").meta({
    description: "Delete an image blogs use anyway: covers using it are cleared, Markdown pointing at it shows its alt text (without it, such a delete is a 409 IMAGE_IN_USE)",
  }),
});

export const listImagesInput = z.object({
  page: integerParam("page", { min: 1, default: DEFAULT_PAGE }).meta({ description: "Page number" }),
  limit: integerParam("limit", { min: 1, max: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE }).meta({ description: "Items per page" }),
});

export const imageOutput = successEnvelope(z.object({ image: imageSchema }));

export const listImagesOutput = successEnvelope(
  z.object({ images: z.array(imageSchema), pagination: pagePaginationSchema }),
);

export const deleteImageOutput = successEnvelope(z.object({ id: z.string(), deleted: z.literal(true) }));

/** The dashboard's library: a page of images, or of those no blog uses. */
export const imageLibraryInput = z.object({
  page: z.int().min(1).default(DEFAULT_PAGE),
  limit: z.int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  unused: z.boolean().default(false),
});

/** The dashboard's bulk delete: the images go all together, or none does. */
export const deleteImagesInput = z.object({
  imageIds: z.array(z.string().min(1)).min(1).max(MAX_PAGE_SIZE),
  force: z.boolean().default(false),
});

