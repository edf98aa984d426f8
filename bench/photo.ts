import sharp from "sharp";

/**
 * A photo-like JPEG made on the spot (smoothed noise: detail everywhere, as a camera's, so it
 * compresses and processes like one): (g)'s upload, and the image tests' large inputs.
 */
export async function photoJpeg(width: number, height: number, quality = 92): Promise<Buffer> {
  const noise = Buffer.alloc(width * height * 3);
  for (let i = 0; i < noise.length; i++) noise[i] = ((i * 2654435761) >>> 24) ^ (i % width);
  return sharp(noise, { raw: { width, height, channels: 3 } }).blur(1.5).jpeg({ quality }).toBuffer();
}

/**
 * The same photo as other bytes (a JPEG comment naming `mark` after its start): the same work to
 * process, but a new image to the server, which answers bytes it already stores at once.
 */
export function markedPhoto(photo: Buffer, mark: string): Buffer {
  const comment = Buffer.from(mark);
  const length = Buffer.alloc(2);
  length.writeUInt16BE(comment.length + 2);
  return Buffer.concat([photo.subarray(0, 2), Buffer.from([0xff, 0xfe]), length, comment, photo.subarray(2)]);
}
