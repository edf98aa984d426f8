import "server-only";
import { getSqlPool } from "~/server/db";
import type { ImageStore } from "./image-store";

/**
 * Files as rows of image_file, written in the transaction that records their image and deleted with
 * it by the foreign key: the default store, which `npm run dev` (embedded PGlite) and the tests use.
 */
export function postgresImageStore(): ImageStore {
  return {
    async save(tx, imageId, files) {
      await tx.imageFile.createMany({ data: files.map(({ name, data }) => ({ imageId, name, data: new Uint8Array(data) })) });
    },
    async read(imageId, name) {
      const { rows } = await getSqlPool().query<{ data: Buffer }>(`SELECT "data" FROM "image_file" WHERE "imageId" = $1 AND "name" = $2`, [imageId, name]);
      return rows[0]?.data ?? null;
    },
    async sizes(imageId) {
      const { rows } = await getSqlPool().query<{ name: string; bytes: number }>(`SELECT "name", octet_length("data") AS "bytes" FROM "image_file" WHERE "imageId" = $1`, [imageId]);
      return new Map(rows.map(({ name, bytes }) => [name, bytes]));
    },
    async remove() {
      // The rows cascade from their image's.
    },
  };
}
