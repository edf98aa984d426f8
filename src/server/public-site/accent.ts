import "server-only";
import { createHash } from "node:crypto";

/**
 * A publication's accent colour on its pages (docs/publication.md, Accent colour): the colour of
 * links (and what is drawn in it) in each scheme, made readable. A link's text must keep WCAG AA
 * contrast (4.5:1) with the page's background, so a colour too light for the light scheme is
 * darkened (mixed with black) and one too dark for the dark scheme lightened (mixed with white),
 * in 5% steps, until it has; a colour that already has it is used as it is. Text drawn on the
 * accent takes the page's background colour, which has the same contrast with it.
 *
 * The page's CSP allows stylesheets by hash only (src/server/public-site/handler.ts), so the
 * accent is a second, tiny stylesheet whose hash its page's answer adds to the CSP.
 */

/** The reader stylesheet's backgrounds (./reader-style.ts): light, dark. */
export const PAGE_BACKGROUNDS = { light: "#ffffff", dark: "#0b1120" } as const;
export const MIN_LINK_CONTRAST = 4.5;

type Rgb = [number, number, number];

const toRgb = (hex: string): Rgb => [1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16)) as Rgb;
const toHex = (rgb: Rgb) => `#${rgb.map((channel) => Math.round(channel).toString(16).padStart(2, "0")).join("")}`;

/** WCAG 2.2's relative luminance. */
function luminance(rgb: Rgb): number {
  const [r, g, b] = rgb.map((channel) => {
    const c = channel / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2.2's contrast ratio of two #rrggbb colours. */
export function contrastRatio(a: string, b: string): number {
  const [high, low] = [luminance(toRgb(a)), luminance(toRgb(b))].sort((x, y) => y - x) as [number, number];
  return (high + 0.05) / (low + 0.05);
}

/** `accent` mixed towards `towards` (black or white) just enough to reach MIN_LINK_CONTRAST on `background`. */
function readableOn(accent: string, background: string, towards: Rgb): string {
  const from = toRgb(accent);
  for (let step = 0; step <= 20; step++) {
    const mixed = toHex(from.map((channel, i) => channel + ((towards[i]! - channel) * step) / 20) as Rgb);
    if (contrastRatio(mixed, background) >= MIN_LINK_CONTRAST) return mixed;
  }
  return toHex(towards);
}

/** The accent as each scheme shows it. */
export function accentColors(accent: string): { light: string; dark: string } {
  return { light: readableOn(accent, PAGE_BACKGROUNDS.light, [0, 0, 0]), dark: readableOn(accent, PAGE_BACKGROUNDS.dark, [255, 255, 255]) };
}

export interface AccentStyle {
  css: string;
  /** The CSP source that allows exactly this stylesheet. */
  source: string;
}

/** The stylesheet that gives the page `accent` (screens only: print keeps its black links). */
export function accentStyle(accent: string): AccentStyle {
  const { light, dark } = accentColors(accent);
  const css = `@media screen{:root{--link:${light}}}@media screen and (prefers-color-scheme:dark){:root{--link:${dark}}}`;
  return { css, source: `'sha256-${createHash("sha256").update(css).digest("base64")}'` };
}
