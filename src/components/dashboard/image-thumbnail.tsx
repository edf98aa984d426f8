import { cn } from "~/lib/cn";
import type { ImageView } from "~/server/api/routers/images/schemas";

/** The thumbnail's width: the smallest variant (src/shared/images.ts), made of every image wider than it. */
const THUMBNAIL_WIDTH = 480;

/**
 * One of the account's images, small, inside the box `className` sizes: its 480 px variant in its
 * own format where it has one, else the original. Decorative: the text beside it names the image.
 */
export function ImageThumbnail({ image, className }: { image: ImageView; className?: string }) {
  const src = image.variants.find((variant) => variant.width === THUMBNAIL_WIDTH && variant.contentType === image.contentType)?.url ?? image.url;
  return (
    // The server already made every size (next/image would make them again).
    // eslint-disable-next-line @next/next/no-img-element
    <img src={src} alt="" width={image.width} height={image.height} loading="lazy" decoding="async" className={cn("bg-slate-50 object-contain", className)} />
  );
}
