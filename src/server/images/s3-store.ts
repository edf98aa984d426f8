import "server-only";
import { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command, NoSuchKey, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import type { Env } from "~/env";
import { contentTypeOf, formatOfFile } from "~/shared/images";
import type { ImageStore } from "./image-store";

/** Objects are `images/{imageId}/{file}`: one prefix per image, listed to delete it whole. */
const keyOf = (imageId: string, name: string) => `images/${imageId}/${name}`;

/**
 * Files as objects of an S3-compatible bucket (AWS S3, Cloudflare R2, MinIO…), what a Vercel
 * deployment uses. A file is written before the transaction recording its image commits; if that
 * transaction fails, the caller removes them (src/server/images/images.ts).
 */
export function s3ImageStore(settings: Pick<Env, "S3_ENDPOINT" | "S3_REGION" | "S3_BUCKET" | "S3_ACCESS_KEY_ID" | "S3_SECRET_ACCESS_KEY">): ImageStore {
  const bucket = settings.S3_BUCKET!;
  const client = new S3Client({
    region: settings.S3_REGION,
    ...(settings.S3_ENDPOINT && { endpoint: settings.S3_ENDPOINT, forcePathStyle: true }),
    ...(settings.S3_ACCESS_KEY_ID && settings.S3_SECRET_ACCESS_KEY && {
      credentials: { accessKeyId: settings.S3_ACCESS_KEY_ID, secretAccessKey: settings.S3_SECRET_ACCESS_KEY },
    }),
    // Checksums only where S3 requires them: not every compatible store checks the newer ones.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });

  return {
    async save(_tx, imageId, files) {
      await Promise.all(
        files.map(({ name, data }) =>
          client.send(new PutObjectCommand({ Bucket: bucket, Key: keyOf(imageId, name), Body: data, ContentType: contentTypeOf(formatOfFile(name)!) })),
        ),
      );
    },
    async read(imageId, name) {
      try {
        const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: keyOf(imageId, name) }));
        return object.Body ? Buffer.from(await object.Body.transformToByteArray()) : null;
      } catch (error) {
        if (error instanceof NoSuchKey) return null;
        throw error;
      }
    },
    async sizes(imageId) {
      const prefix = keyOf(imageId, "");
      const listed = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }));
      return new Map((listed.Contents ?? []).map(({ Key, Size }) => [Key!.slice(prefix.length), Size ?? 0]));
    },
    async remove(imageIds) {
      for (const imageId of imageIds) {
        const listed = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: keyOf(imageId, "") }));
        await Promise.all((listed.Contents ?? []).map(({ Key }) => client.send(new DeleteObjectCommand({ Bucket: bucket, Key }))));
      }
    },
  };
}
