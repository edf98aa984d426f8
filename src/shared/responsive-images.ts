import { contentTypeOf, imagePath, thumbnailFile, variantFileName, variantFormats, variantWidths, type ImageReference } from "./images";

/**
 * How the public pages show one of our images at the width it is drawn (docs/public-blog.md,
 * Reading): a <picture> offering its variants (src/shared/images.ts names them) so the browser
 * fetches the smallest file in the best format it reads. The Markdown renderer (in the browser
 * too) and the public pages' covers both build theirs from this.
 */

/** The reader's page: its column at most this wide (rem), inside this gutter on each side; reader-style.ts lays it out from these. */
export const READER_PAGE_MAX_WIDTH_REM = 44;
export const READER_GUTTER_REM = 1.25;
/** Index cards sit two to a row from this page width (rem), one to a row below, this far apart (rem). */
export const CARD_GRID_MIN_WIDTH_REM = 40;
export const CARD_GAP_REM = 1.5;

/** An image across the reader's column: the full width of a narrow screen but its gutters, else the column's. */
export const READER_COLUMN_SIZES = `(min-width: ${READER_PAGE_MAX_WIDTH_REM}rem) ${READER_PAGE_MAX_WIDTH_REM - 2 * READER_GUTTER_REM}rem, calc(100vw - ${2 * READER_GUTTER_REM}rem)`;
/** A card's cover: its card's width, half the column (less half the gap) from CARD_GRID_MIN_WIDTH_REM, else the column's. */
export const CARD_COVER_SIZES = `(min-width: ${READER_PAGE_MAX_WIDTH_REM}rem) ${(READER_PAGE_MAX_WIDTH_REM - 2 * READER_GUTTER_REM - CARD_GAP_REM) / 2}rem, (min-width: ${CARD_GRID_MIN_WIDTH_REM}rem) calc(50vw - ${READER_GUTTER_REM + CARD_GAP_REM / 2}rem), calc(100vw - ${2 * READER_GUTTER_REM}rem)`;

export interface ResponsivePicture {
  /** One per format the browser should prefer to the <img>'s, best first; none when the image has no variants. */
  sources: { type: string; srcSet: string }[];
  img: { src: string; srcSet?: string; width: number; height: number };
}

/**
 * The files of `image` to offer, under `base` ("" for paths, the app's origin for absolute URLs).
 * The <img> holds the original's format (its variants and the original itself); each other variant
 * format gets a <source>, and so does the original's own when a later one must not win over it
 * (an AVIF original before its WebP variants). An image narrower than every variant width is
 * just its original; one whose variants are pending, its original and thumbnail.
 */
export function responsivePicture(image: ImageReference, base = ""): ResponsivePicture {
  const url = (file?: string) => base + imagePath(image, file);
  // Until the image_variants job has made them, the thumbnail is its only variant.
  const widths = image.variantsPending ? [thumbnailFile(image)?.width ?? []].flat() : variantWidths(image.width);
  const srcSet = (format: ImageReference["format"]) =>
    [...widths.map((width) => `${url(variantFileName(width, format))} ${width}w`), ...(format === image.format ? [`${url()} ${image.width}w`] : [])].join(", ");
  const img = { src: url(), width: image.width, height: image.height };
  if (widths.length === 0) return { sources: [], img };
  const formats = image.variantsPending ? [image.format] : variantFormats(image.format);
  const sourceFormats = formats.at(-1) === image.format ? formats.slice(0, -1) : formats;
  return {
    sources: sourceFormats.map((format) => ({ type: contentTypeOf(format), srcSet: srcSet(format) })),
    img: { ...img, srcSet: srcSet(image.format) },
  };
}
