import "server-only";
import { IMAGE_FORMATS, originalFileName, type ImageFormat } from "~/shared/images";

/**
 * Where the export's zip keeps each image (docs/migrating.md, Export): `content/images/{id}/{name}`,
 * the folder Ghost's own exports use, so the zip imports as a Ghost export with its images. The
 * name is the owner's file name, cut to characters any URL and file system take.
 */

/** An image as the export needs it. */
export interface ExportedImage {
  id: string;
  fileName: string;
  width: number;
  height: number;
  format: ImageFormat;
}

const EXTENSIONS: Record<ImageFormat, readonly string[]> = {
  jpeg: ["jpg", "jpeg"],
  png: ["png"],
  webp: ["webp"],
  avif: ["avif"],
  gif: ["gif"],
};

/** The image's name in the zip: its file name in letters, digits, `_` and `-`, with its format's extension. */
export function exportedFileName(image: ExportedImage): string {
  const dot = image.fileName.lastIndexOf(".");
  const given = dot > 0 ? image.fileName.slice(dot + 1).toLowerCase() : "";
  const extension = EXTENSIONS[image.format].includes(given) ? given : image.format;
  const base = (dot > 0 ? image.fileName.slice(0, dot) : image.fileName).replace(/[^A-Za-z0-9_-]+/g, "-").replace(/^-+|-+$/g, "");
  return base ? `${base}.${extension}` : originalFileName(image);
}

/** The image's path inside the zip. */
export const exportedImagePath = (image: ExportedImage) => `content/images/${image.id}/${exportedFileName(image)}`;

/**
 * Our image URLs in Markdown (docs/images.md: `/images/{id}/{file}`, its original or a variant,
 * bare or under an origin) — the same image wherever it is served from, since the id is the
 * account's own — rewritten to `{base}content/images/{id}/{name}`. URLs of images the account
 * does not have are left as written.
 */
const IMAGE_URL = new RegExp(`(?:https?://[^\\s/()<>"'\\]]+)?/images/([a-z0-9]{20,40})/[^\\s/()<>"'?#\\]]+\\.(?:${[...IMAGE_FORMATS, "jpg"].join("|")})`, "g");

export function rewriteImageUrls(markdown: string, images: ReadonlyMap<string, ExportedImage>, base: string): string {
  return markdown.replace(IMAGE_URL, (url, id: string) => {
    const image = images.get(id);
    return image ? `${base}${exportedImagePath(image)}` : url;
  });
}
