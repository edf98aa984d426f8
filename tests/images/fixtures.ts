import { deflateSync } from "node:zlib";
import sharp from "sharp";
export { photoJpeg } from "../../bench/photo";

/** Pictures and impostors for the image tests, made here rather than kept as binary files. */

const gradient = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 40, g: 120, b: 200 } } }).composite([
    { input: Buffer.from(`<svg width="${width}" height="${height}"><rect x="0" y="0" width="${width / 2}" height="${height}" fill="#e33"/></svg>`), top: 0, left: 0 },
  ]);

/** A camera's JPEG: 1200×800 stored, EXIF orientation 6 (shown 800×1200), GPS position and an ICC profile. */
export async function cameraJpeg(): Promise<Buffer> {
  const pixels = await gradient(1200, 800).jpeg().toBuffer();
  return sharp(pixels)
    .withExif({ IFD0: { Make: "TestCam", Copyright: "someone" }, IFD3: { GPSLatitudeRef: "N", GPSLatitude: "48/1 51/1 2400/100" } })
    .withMetadata({ orientation: 6 })
    .withIccProfile("p3")
    .jpeg({ quality: 90 })
    .toBuffer();
}

export const png = () => gradient(640, 480).png().toBuffer();
/** The PNG above with pixel (`mark`, 0) black: other bytes (another image), about the same size stored. */
export const markedPng = (mark: number) =>
  gradient(640, 480)
    .png()
    .toBuffer()
    .then((base) => sharp(base).composite([{ input: Buffer.from(`<svg width="1" height="1"><rect width="1" height="1" fill="#000"/></svg>`), top: 0, left: mark }]).png().toBuffer());
export const webp = () => gradient(1000, 500).webp().toBuffer();
export const avif = () => gradient(600, 400).avif().toBuffer();
/** A two-frame animation, 500×300. */
export async function animatedGif(): Promise<Buffer> {
  const frames = await Promise.all([gradient(500, 300).png().toBuffer(), gradient(500, 300).negate().png().toBuffer()]);
  return sharp(frames, { join: { animated: true } }).gif({ loop: 0 }).toBuffer();
}

export const svgWithScript = () => Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(document.cookie)</script></svg>`);
export const htmlPage = () => Buffer.from("<!doctype html><html><body><script>alert(1)</script></body></html>");
export const pdfFile = () => Buffer.from("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n");

/** A valid JPEG that is also HTML: the markup in a comment segment right after the start. */
export async function htmlJpegPolyglot(): Promise<Buffer> {
  const jpeg = await gradient(64, 64).jpeg().toBuffer();
  const markup = Buffer.from("<html><script>alert(1)</script></html>");
  const length = Buffer.alloc(2);
  length.writeUInt16BE(markup.length + 2);
  return Buffer.concat([jpeg.subarray(0, 2), Buffer.from([0xff, 0xfe]), length, markup, jpeg.subarray(2)]);
}

/** A PNG declaring 20,000×20,000 pixels (400 megapixels) in about 50 kB: 1-bit grey, all zero. */
export function pngBomb(side = 20_000): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // greyscale
  const rows = Buffer.alloc(side * (1 + Math.ceil(side / 8)));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", header), chunk("IDAT", deflateSync(rows, { level: 9 })), chunk("IEND", Buffer.alloc(0))]);
}

function crc32(data: Buffer): number {
  let crc = ~0;
  for (const byte of data) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

/**
 * An animation that is cheap to send and dear to process: 1,000 frames of 640×62 (39.7 megapixels
 * together, under the limit) in about 290 kB, each frame one flat colour with a short bar.
 */
export async function heavyAnimation(): Promise<Buffer> {
  const [width, height, frames] = [640, 62, 1000];
  const pixels = Buffer.alloc(width * height * frames * 3);
  for (let frame = 0; frame < frames; frame++) {
    const start = frame * width * height * 3;
    pixels.fill(frame % 2 ? 200 : 40, start, start + width * height * 3);
    const bar = start + (frame % height) * width * 3;
    pixels.fill(255, bar, bar + 30);
  }
  return sharp(pixels, { raw: { width, height: height * frames, channels: 3, pageHeight: height } }).gif({ loop: 0, effort: 1 }).toBuffer();
}
