/**
 * Images as the app stores and addresses them (docs/images.md): the one place that knows the
 * accepted formats, the variants made of each upload and the files' names in their URLs. The
 * server (processing, storage, serving) and the Markdown renderer (srcset, in the browser too)
 * both read it.
 *
 * An image's URL is `/images/{id}/{width}x{height}.{format}`, its processed original: it carries the
 * dimensions and format, so Markdown pointing at it can be given its variants, `width` and `height`
 * without looking anything up. Variants are `/images/{id}/{width}w.{format}`.
 */

/** The formats accepted, as sharp names them; also each file's extension. */
export const IMAGE_FORMATS = ["jpeg", "png", "webp", "avif", "gif"] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];

export const isImageFormat = (value: string): value is ImageFormat => (IMAGE_FORMATS as readonly string[]).includes(value);

export const contentTypeOf = (format: ImageFormat) => `image/${format}`;

/** The largest upload, in bytes (10 MiB). */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
/** The largest request carrying one image as a form: the image, and room for the form's boundaries, part headers and small fields. */
export const MAX_IMAGE_REQUEST_BYTES = MAX_IMAGE_BYTES + 64 * 1024;
/** The most pixels an upload may have (width × height of one frame): 40 megapixels. */
export const MAX_IMAGE_PIXELS = 40_000_000;

/**
 * Widths of the resized variants; only those narrower than the original are made (never upscaled).
 * 664 and 1328 are the reader's column (src/shared/responsive-images.ts) at 1× and 2×, so a post's
 * images are sharp on desktop screens at both; 960 serves phones at 2× and 3×. Images made before
 * 664 and 1328 were added got them from the image_variants job (the image_variant_ladder migration).
 */
export const VARIANT_WIDTHS = [480, 664, 960, 1328, 1600, 2400] as const;

/** The path every image's files are under. */
export const IMAGES_PATH = "/images";

/** What an image's URL says of it; `variantsPending` what its row adds when known (ImageFiles). */
export interface ImageReference {
  id: string;
  width: number;
  height: number;
  format: ImageFormat;
  /** Only its original and thumbnail exist yet: the image_variants job makes the rest (docs/images.md, Processing). */
  variantsPending?: boolean;
}

/** One file of an image: its name in the URL, format and width. */
export interface ImageFileRef {
  name: string;
  format: ImageFormat;
  width: number;
}

/**
 * The formats of an image's variants: the modern two and its own. A GIF gets no AVIF (sharp writes
 * no animated AVIF) and keeps GIF for browsers that show nothing else animated.
 */
export function variantFormats(format: ImageFormat): ImageFormat[] {
  const modern: ImageFormat[] = format === "gif" ? ["webp"] : ["avif", "webp"];
  return modern.includes(format) ? modern : [...modern, format];
}

/** The widths of an image's variants. */
export function variantWidths(width: number): number[] {
  return VARIANT_WIDTHS.filter((variant) => variant < width);
}

export const originalFileName = ({ width, height, format }: Omit<ImageReference, "id">) => `${width}x${height}.${format}`;
export const variantFileName = (width: number, format: ImageFormat) => `${width}w.${format}`;

/**
 * The variant the upload's answer waits for (the dashboard's thumbnail): the smallest, in the
 * image's own format; null for an image narrower than every variant.
 */
export function thumbnailFile(image: Omit<ImageReference, "id">): ImageFileRef | null {
  const width = variantWidths(image.width)[0];
  return width === undefined ? null : { name: variantFileName(width, image.format), format: image.format, width };
}

/** Every file of an image: its original, then its variants; while its variants are pending, its thumbnail alone. */
export function imageFiles(image: Omit<ImageReference, "id">): ImageFileRef[] {
  const original = { name: originalFileName(image), format: image.format, width: image.width };
  if (image.variantsPending) return [original, ...[thumbnailFile(image) ?? []].flat()];
  return [original, ...variantWidths(image.width).flatMap((width) => variantFormats(image.format).map((format) => ({ name: variantFileName(width, format), format, width })))];
}

/** An image's path (its original), or one of its files'. */
export const imagePath = (image: ImageReference, file = originalFileName(image)) => `${IMAGES_PATH}/${image.id}/${file}`;

/** An image id as the app makes them (cuid): letters and digits. */
const ID = "[a-z0-9]{20,40}";
const ORIGINAL_PATH = new RegExp(`^${IMAGES_PATH}/(${ID})/([1-9][0-9]{0,4})x([1-9][0-9]{0,4})\\.(${IMAGE_FORMATS.join("|")})$`);
const FILE_PATH = new RegExp(`^${IMAGES_PATH}/(${ID})/([^/]+)$`);

/** The image a path names by its original (`/images/{id}/{w}x{h}.{format}`), or null. */
export function parseImagePath(path: string): ImageReference | null {
  const match = ORIGINAL_PATH.exec(path);
  if (!match) return null;
  return { id: match[1]!, width: Number(match[2]), height: Number(match[3]), format: match[4] as ImageFormat };
}

/** The image id and file name a request path names (`/images/{id}/{file}`), or null. */
export function parseImageFilePath(path: string): { id: string; file: string } | null {
  const match = FILE_PATH.exec(path);
  return match ? { id: match[1]!, file: match[2]! } : null;
}

/** The longest file name kept of an upload (characters). */
export const MAX_FILE_NAME_LENGTH = 200;

/**
 * An upload's file name as the library shows it: its last path segment, without control or
 * invisible formatting characters, spaces collapsed, at most MAX_FILE_NAME_LENGTH characters
 * (the extension kept); an upload without one is named after its original's file.
 */
export function sanitizeFileName(name: string, image: Omit<ImageReference, "id">): string {
  const base = (name.split(/[\\/]/).pop() ?? "").replace(/[\p{Cc}\p{Cf}]/gu, "").replace(/\s+/g, " ").trim();
  if (!base || base === "." || base === "..") return originalFileName(image);
  if (base.length <= MAX_FILE_NAME_LENGTH) return base;
  const dot = base.lastIndexOf(".");
  const extension = dot > 0 && base.length - dot <= 10 ? base.slice(dot) : "";
  return Array.from(base.slice(0, base.length - extension.length)).slice(0, MAX_FILE_NAME_LENGTH - extension.length).join("") + extension;
}

/** The format of a stored file, by its name's extension. */
export function formatOfFile(file: string): ImageFormat | null {
  const extension = file.slice(file.lastIndexOf(".") + 1);
  return isImageFormat(extension) ? extension : null;
}

/** A size as people read it, in decimal units as the quotas are set ("1.4 MB"). */
export function formatBytes(bytes: number): string {
  const units = ["bytes", "kB", "MB", "GB", "TB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return unit === 0 ? `${bytes} bytes` : `${Number(value.toFixed(value < 10 ? 1 : 0))} ${units[unit]}`;
}
