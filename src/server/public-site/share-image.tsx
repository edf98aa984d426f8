import "server-only";
import satori from "satori";
import sharp from "sharp";
import { emojiImage, fontsFor } from "./share-image-assets";

/**
 * A blog's share image (docs/public-blog.md, Share images): 1200×630 PNG with its title, author
 * and its publication's title (`site`), laid out by satori as SVG with the fonts and emoji the app ships (never fetched:
 * Next's ImageResponse fetched them from third-party hosts) and made a PNG by sharp, for og:image
 * and twitter:image. Made once per change, like the pages.
 */
export const SHARE_IMAGE_SIZE = { width: 1200, height: 630 } as const;

export async function renderShareImage({ title, author, site }: { title: string; author: string; site: string }): Promise<Buffer> {
  // Long titles step down in size so that they fit in four lines or so.
  const titleSize = title.length > 90 ? 52 : title.length > 50 ? 64 : 76;
  const svg = await satori(
    (
      <div style={{ display: "flex", flexDirection: "column", justifyContent: "space-between", width: "100%", height: "100%", padding: "72px 80px", background: "#0f172a", color: "#f8fafc" }}>
        <div style={{ display: "flex", fontSize: 32, color: "#c7d2fe", overflow: "hidden", maxHeight: 1.3 * 32, lineHeight: 1.3 }}>{site}</div>
        <div style={{ display: "flex", fontSize: titleSize, lineHeight: 1.15, letterSpacing: -1, overflow: "hidden", maxHeight: 4 * 1.15 * titleSize }}>{title}</div>
        <div style={{ display: "flex", fontSize: 34, color: "#cbd5e1" }}>{author}</div>
      </div>
    ),
    {
      ...SHARE_IMAGE_SIZE,
      fonts: await fontsFor(`${site}${title}${author}`),
      // Called for what the fonts lack: emoji are drawn as images, anything else stays blank.
      loadAdditionalAsset: async (code, segment) => (code === "emoji" ? ((await emojiImage(segment)) ?? []) : []),
    },
  );
  return sharp(Buffer.from(svg)).png().toBuffer();
}
