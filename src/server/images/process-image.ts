import "server-only";
import sharp, { type Metadata, type OutputInfo, type Sharp } from "sharp";
import { DomainError } from "~/server/common/domain-error";
import {
  imageFiles,
  isImageFormat,
  thumbnailFile,
  MAX_IMAGE_BYTES,
  MAX_IMAGE_PIXELS,
  type ImageFileRef,
  type ImageFormat,
} from "~/shared/images";

/** An image's files made ready to store (processImage): at upload, the original re-encoded clean and its thumbnail; later, its other variants. */
export interface ProcessedImage {
  width: number;
  height: number;
  format: ImageFormat;
  files: ProcessedFile[];
  /** Variants are still to be made (by the image_variants job). */
  variantsPending: boolean;
}

export interface ProcessedFile extends ImageFileRef {
  data: Buffer;
}

// libvips' own cache keeps decoded images of past requests: nothing here is read twice.
sharp.cache(false);

/** An animation's timing, which an encoder is given when its input is decoded pixels rather than the upload. */
interface Animation {
  delay?: number[];
  loop?: number;
}

/**
 * Encoder settings: quality a reader will not tell from the original, at the lowest efforts, since
 * the server's CPU makes all of it (a 12-megapixel photo of noise: 3 s on one core, against
 * 12 s with mozjpeg, WebP effort 4 and AVIF effort 2; bench/README.md, Images).
 */
const ENCODERS: Record<ImageFormat, (image: Sharp, animation: Animation) => Sharp> = {
  jpeg: (image) => image.jpeg({ quality: 82 }),
  png: (image) => image.png({ compressionLevel: 6 }),
  webp: (image, animation) => image.webp({ quality: 80, effort: 2, ...animation }),
  avif: (image) => image.avif({ quality: 55, effort: 0 }),
  gif: (image, animation) => image.gif({ effort: 7, ...animation }),
};

/**
 * Text that has no place in a picture and makes a browser or another program take the file for
 * something else (a polyglot: a valid image that is also HTML or SVG). The stored files are
 * re-encoded and could not carry it; refusing says plainly that the upload was not a plain image.
 */
const FOREIGN_MARKUP = /<(?:script|html|body|iframe|object|embed|svg[\s>]|!doctype|\?xml|\?php)/i;

/** What an upload's header says, once it is known to be an image the app accepts. */
export interface UploadHeader {
  format: ImageFormat;
  width: number;
  /** One frame's height. */
  frameHeight: number;
  frames: number;
  animation: Animation;
}

/**
 * An upload checked from its header alone, nothing decoded (docs/images.md): the type decided from
 * the bytes (sharp's reading of the header), at most MAX_IMAGE_BYTES and MAX_IMAGE_PIXELS (all
 * frames together), no markup in it. Cheap enough to run before an upload waits for the processor.
 */
export async function inspectUpload(bytes: Uint8Array): Promise<UploadHeader> {
  if (bytes.byteLength === 0) throw new DomainError("MISSING_REQUIRED_FIELD", "Missing required field: file", "The upload is empty", "file");
  if (bytes.byteLength > MAX_IMAGE_BYTES) throw tooLarge();
  const input = asBuffer(bytes);
  // The header only: its dimensions are checked below, so no limit here (a bomb is then refused by name).
  const metadata = await sharp(input, { limitInputPixels: false }).metadata().catch(() => null);
  const format = formatOf(metadata);
  if (!metadata || !format || FOREIGN_MARKUP.test(input.toString("latin1"))) throw unsupported();
  const frameHeight = metadata.pageHeight ?? metadata.height;
  const frames = metadata.pages ?? 1;
  if (metadata.width * frameHeight * frames > MAX_IMAGE_PIXELS) {
    throw new DomainError(
      "INVALID_PARAMETER",
      "Invalid parameter: file",
      `An image may have at most ${MAX_IMAGE_PIXELS / 1_000_000} megapixels (all frames together); this one has ${metadata.width}×${frameHeight}` +
        (frames > 1 ? ` in ${frames} frames` : ""),
    );
  }
  return { format, width: metadata.width, frameHeight, frames, animation: frames > 1 ? { delay: metadata.delay, loop: metadata.loop } : {} };
}

/** What processing an upload costs, in pixels decoded: every frame's (docs/security.md, Upload fairness). */
export const uploadCost = (header: UploadHeader) => header.width * header.frameHeight * header.frames;

const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/**
 * What processing makes of an image: at upload its original and thumbnail (src/shared/images.ts),
 * which the answer waits for; then, from the stored original, the rest of its variants (the
 * image_variants job, src/server/images/variants.ts).
 */
export type ProcessingStage = "upload" | "variants";

/**
 * An image checked (inspectUpload) and processed. At upload: decoded with libvips' own pixel limit
 * too, orientation applied, metadata (EXIF, GPS, XMP, ICC after conversion to sRGB) dropped by
 * re-encoding, its thumbnail made. For its variants: every variant but the thumbnail, made from the
 * stored original. All the work runs on libuv's thread pool, off the event loop. `signal` aborted
 * (the client went away), it stops before its next step.
 */
export async function processImage(bytes: Uint8Array, stage: ProcessingStage, signal?: AbortSignal): Promise<ProcessedImage> {
  const { format, width: headerWidth, frameHeight, frames, animation } = await inspectUpload(bytes);
  const input = asBuffer(bytes);
  const decoded = () => sharp(input, { limitInputPixels: MAX_IMAGE_PIXELS, animated: frames > 1 }).autoOrient();
  try {
    signal?.throwIfAborted();
    const files: ProcessedFile[] = [];
    let size = { width: headerWidth, height: frameHeight, format };
    if (stage === "upload") {
      const original = await ENCODERS[format](decoded(), {}).toBuffer({ resolveWithObject: true });
      const { width, pageHeight, height } = original.info as OutputInfo & { pageHeight?: number };
      size = { width, height: pageHeight ?? height, format };
      files.push({ ...imageFiles(size)[0]!, data: original.data });
    }
    const [, ...variants] = imageFiles(size);
    const thumbnail = thumbnailFile(size);
    const wanted = variants.filter((variant) => (variant.name === thumbnail?.name) === (stage === "upload"));
    // Variants are made from one decoded copy at the largest variant's width, oriented, every frame
    // of an animation in it: decoding and turning the whole upload for each was most of the time.
    signal?.throwIfAborted();
    const source =
      wanted.length === 0 ? null : await decoded().resize({ width: Math.max(...wanted.map((variant) => variant.width)) }).raw().toBuffer({ resolveWithObject: true });
    // One at a time: the thread pool is shared with every other request.
    for (const variant of wanted) {
      signal?.throwIfAborted();
      const resized = sharp(source!.data, { raw: source!.info, animated: frames > 1 }).resize({ width: variant.width });
      files.push({ ...variant, data: await ENCODERS[variant.format](resized, animation).toBuffer() });
    }
    return { ...size, files, variantsPending: stage === "upload" && variants.length > wanted.length };
  } catch (error) {
    if (signal?.aborted) throw error;
    // libvips read the header but not the pixels: a truncated or corrupt file.
    throw new DomainError("INVALID_PARAMETER", "Invalid parameter: file", `The image could not be decoded: ${decodeProblem(error)}`);
  }
}

/** The accepted format sharp read from the header; AVIF is HEIF with the AV1 codec (HEIC is not accepted). */
function formatOf(metadata: Metadata | null): ImageFormat | null {
  if (!metadata?.width || !metadata.height) return null;
  if (metadata.format === "heif") return metadata.compression === "av1" ? "avif" : null;
  return isImageFormat(metadata.format) ? metadata.format : null;
}

function decodeProblem(error: unknown): string {
  const message = error instanceof Error ? error.message : "";
  return /premature|truncat|end of (?:file|data)/i.test(message) ? "it is truncated" : "it is corrupt";
}

export function tooLarge(): DomainError {
  return new DomainError("PAYLOAD_TOO_LARGE", "Payload too large", `An image may be at most ${MAX_IMAGE_BYTES / 1024 / 1024} MiB`);
}

function unsupported(): DomainError {
  return new DomainError(
    "UNSUPPORTED_MEDIA_TYPE",
    "Unsupported media type",
    "The file is not a JPEG, PNG, WebP, AVIF or GIF image: the type is read from its content, never from its name or declared type",
  );
}
