import "server-only";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { LRUCache } from "lru-cache";
import type { Font } from "satori";

/**
 * The fonts and emoji share images are drawn with (docs/public-blog.md, Share images), all shipped
 * in npm packages and read from disk: nothing is fetched. Noto Sans from @fontsource, whose
 * families come split into files by Unicode range, so a title loads only the files holding its
 * characters (a few of tens of kB; WOFF, since satori reads no WOFF2), and Twemoji's SVGs.
 */

// The app's own packages (npm start and next dev run in the app's directory; on Vercel the files
// are traced by next.config.mjs, outputFileTracingIncludes). Not followed by the bundler's tracing,
// which would take every file of the packages.
const PACKAGES = join(/* turbopackIgnore: true */ process.cwd(), "node_modules");

/** Noto Sans (Latin, Greek, Cyrillic, Vietnamese, Devanagari) and its Chinese, Japanese and Korean families. */
const LATIN = "noto-sans";
const CHINESE = "noto-sans-sc";
const JAPANESE = "noto-sans-jp";
const KOREAN = "noto-sans-kr";

interface FontFace {
  family: string;
  file: string;
  /** Code point ranges, inclusive. */
  ranges: [number, number][];
}

/** Recently read files (fonts and emoji), up to 16 MB: a popular title's glyphs are read once. */
const files = new LRUCache<string, Buffer>({ maxSize: 16 * 1024 * 1024, sizeCalculation: (data) => Math.max(1, data.length) });

async function readPackageFile(path: string): Promise<Buffer> {
  const kept = files.get(path);
  if (kept) return kept;
  const data = await readFile(join(PACKAGES, path));
  files.set(path, data);
  return data;
}

const facesByFamily = new Map<string, Promise<FontFace[]>>();

/** A family's regular faces, as its stylesheet lists them (one @font-face per file and Unicode range). */
function facesOf(family: string): Promise<FontFace[]> {
  let faces = facesByFamily.get(family);
  if (!faces) {
    faces = readFile(join(PACKAGES, "@fontsource", family, "400.css"), "utf8").then((css) =>
      [...css.matchAll(/url\(\.\/files\/([^)]+\.woff)\) format\('woff'\);\s*unicode-range:\s*([^;]+);/g)].map(([, file, ranges]) => ({
        family,
        file: file!,
        ranges: ranges!.split(",").map((range) => {
          const [start, end = start] = range.trim().replace(/^U\+/i, "").split("-").map((hex) => parseInt(hex, 16));
          return [start!, end!] as [number, number];
        }),
      })),
    );
    facesByFamily.set(family, faces);
  }
  return faces;
}

const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/u;
const EMOJI = /\p{Extended_Pictographic}/u;

/**
 * The font files `text` needs: for each character, the first face holding it, Noto Sans first,
 * then Han characters in their Japanese forms when the text has kana, else their Chinese ones, then
 * Korean. Noto Sans' Latin file always comes, as satori's default font. Emoji are drawn as images
 * (emojiImage), never from a font; characters no face holds stay blank.
 */
export async function fontsFor(text: string): Promise<Font[]> {
  const families = [LATIN, ...(KANA.test(text) ? [JAPANESE, CHINESE] : [CHINESE, JAPANESE]), KOREAN];
  const faces = (await Promise.all(families.map(facesOf))).flat();
  const holds = (face: FontFace, codePoint: number) => face.ranges.some(([start, end]) => start <= codePoint && codePoint <= end);
  const needed = new Set<FontFace>();
  for (const character of `A${text}`) {
    if (EMOJI.test(character) || /\s/u.test(character)) continue;
    const face = faces.find((candidate) => holds(candidate, character.codePointAt(0)!));
    if (face) needed.add(face);
  }
  return Promise.all(
    [...needed].map(async (face) => ({ name: face.file, data: await readPackageFile(join("@fontsource", face.family, "files", face.file)), weight: 400 as const, style: "normal" as const })),
  );
}

/**
 * An emoji as Twemoji draws it, as a data URL, or null when it has none. Its file is named by the
 * code points in hex, without the variation selector FE0F unless the emoji joins others (ZWJ).
 */
export async function emojiImage(emoji: string): Promise<string | null> {
  const codePoints = [...(emoji.includes("\u200d") ? emoji : emoji.replaceAll("\ufe0f", ""))].map((character) => character.codePointAt(0)!.toString(16));
  try {
    return `data:image/svg+xml;base64,${(await readPackageFile(join("@discordapp", "twemoji", "dist", "svg", `${codePoints.join("-")}.svg`))).toString("base64")}`;
  } catch {
    return null;
  }
}
